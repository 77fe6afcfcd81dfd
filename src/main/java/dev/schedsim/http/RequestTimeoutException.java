package dev.schedsim.http;

/** A request body that did not arrive within {@code schedsim.body-timeout}: 408. */
class RequestTimeoutException extends RuntimeException {
    RequestTimeoutException(long timeoutMs) {
        super("the request body did not arrive within " + timeoutMs + " ms (schedsim.body-timeout)");
    }
}
