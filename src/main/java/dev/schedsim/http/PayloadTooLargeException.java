package dev.schedsim.http;

/** A request body above {@code schedsim.max-body-size}: 413. */
class PayloadTooLargeException extends RuntimeException {
    private final long max;

    PayloadTooLargeException(long max) {
        super("the request body exceeds " + max + " bytes");
        this.max = max;
    }

    long max() {
        return max;
    }
}
