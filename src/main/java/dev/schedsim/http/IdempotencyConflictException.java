package dev.schedsim.http;

/** An Idempotency-Key reused with another request body (answered 422). */
public class IdempotencyConflictException extends RuntimeException {
    public IdempotencyConflictException(String key) {
        super("the Idempotency-Key " + key + " was already used with a different request body (or by another "
                + "client); use a fresh key for a new submission");
    }
}
