package dev.schedsim.http;

import java.util.List;

/** A well-formed request beyond a configured limit ({@code schedsim.limits.*}): 422 naming the limit. */
public class LimitExceededException extends RuntimeException {
    /** One limit: its property, its configured value, what the request asked and the field responsible. */
    public record Exceeded(String limit, long value, long requested, String field, String needs) {
        public Exceeded(String limit, long value, long requested, String field) {
            this(limit, value, requested, field, null);
        }

        /** What the problem says: the limit, and what the request needs (an estimate says so, and how to fix). */
        public String message() {
            return limit + " is " + value + "; the request needs " + (needs == null ? String.valueOf(requested)
                    : needs);
        }
    }

    private final List<Exceeded> exceeded;

    public LimitExceededException(List<Exceeded> exceeded) {
        super(exceeded.get(0).limit() + " is " + exceeded.get(0).value());
        this.exceeded = List.copyOf(exceeded);
    }

    List<Exceeded> exceeded() {
        return exceeded;
    }
}
