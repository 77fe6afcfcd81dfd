package dev.schedsim.api;

import java.util.List;

/** A request that is not JSON or breaks field rules: 400 with every violation. */
class InvalidRequestException extends RuntimeException {
    private final boolean malformed;
    private final List<Violation> violations;

    InvalidRequestException(boolean malformed, List<Violation> violations) {
        super(violations.size() + " violation(s)");
        this.malformed = malformed;
        this.violations = List.copyOf(violations);
    }

    boolean malformed() {
        return malformed;
    }

    List<Violation> violations() {
        return violations;
    }
}
