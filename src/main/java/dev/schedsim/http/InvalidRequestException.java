package dev.schedsim.http;

import java.util.List;

/** A request that is not JSON or breaks field rules: 400 with every violation. */
public class InvalidRequestException extends RuntimeException {
    private final boolean malformed;
    private final List<Violation> violations;

    public InvalidRequestException(boolean malformed, List<Violation> violations) {
        super(violations.size() + " violation(s)");
        this.malformed = malformed;
        this.violations = List.copyOf(violations);
    }

    /** A 400 naming one field. */
    public static InvalidRequestException of(String field, String message) {
        return new InvalidRequestException(false, List.of(new Violation(field, message)));
    }

    public boolean malformed() {
        return malformed;
    }

    public List<Violation> violations() {
        return violations;
    }
}
