package dev.schedsim.api;

/** A saved topology name that is a preset's or already saved: 409. */
class NameConflictException extends RuntimeException {
    NameConflictException(String message) {
        super(message);
    }
}
