package dev.schedsim.http;

/** A saved topology name that is a preset's or already saved: 409. */
public class NameConflictException extends RuntimeException {
    public NameConflictException(String message) {
        super(message);
    }
}
