package dev.schedsim.http;

/**
 * The service is doing as much of some work as it does at once (named in the message): 503 with Retry-After, a
 * problem of type {@code busy}. For work done while a request waits, outside the queue and its limits.
 */
public class BusyException extends RuntimeException {
    private final int retryAfterSeconds;

    public BusyException(String message, int retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
