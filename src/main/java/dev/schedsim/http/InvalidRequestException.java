package dev.schedsim.http;

import java.util.List;

/** A request that is not JSON or breaks field rules: 400 with every violation. */
public class InvalidRequestException extends RuntimeException {
    private final boolean malformed;
    private final List<Violation> violations;
    /** What kind of problem: its type and title ("wrong-type", "Wrong type"); null for the plain two. */
    private final Kind kind;

    /** A kind of problem with the body's content, named in the problem's type and title. */
    public record Kind(String type, String title) {
        public static final Kind UNKNOWN_FIELD = new Kind("unknown-field", "Unknown field");
        public static final Kind WRONG_TYPE = new Kind("wrong-type", "Wrong type");
        public static final Kind NOT_THIS_ENDPOINT = new Kind("wrong-document", "Not a request of this endpoint");
    }

    public InvalidRequestException(boolean malformed, List<Violation> violations) {
        this(malformed, violations, null);
    }

    public InvalidRequestException(boolean malformed, List<Violation> violations, Kind kind) {
        super(violations.size() + " violation(s)");
        this.malformed = malformed;
        this.violations = List.copyOf(violations);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
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
