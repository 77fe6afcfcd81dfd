package dev.schedsim.http;

/**
 * A client is over one of its own limits (schedsim.security.max-queued-per-client,
 * max-queued-events-per-client, submissions-per-minute): answered 429 with Retry-After and the limit's name, while other
 * clients go on submitting.
 */
public class ClientLimitException extends RuntimeException {
    private final String limit;
    private final long value;
    private final long retryAfterSeconds;

    public ClientLimitException(String limit, long value, long retryAfterSeconds, String message) {
        super(message);
        this.limit = limit;
        this.value = value;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public String limit() {
        return limit;
    }

    public long value() {
        return value;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
