package dev.schedsim.http;

import java.util.List;

/** A well-formed request beyond a configured limit ({@code schedsim.limits.*}): 422 naming the limit. */
public class LimitExceededException extends RuntimeException {
    /** One limit: its property, its configured value, what the request asked and the field responsible. */
    public record Exceeded(String limit, long value, long requested, String field) {
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
