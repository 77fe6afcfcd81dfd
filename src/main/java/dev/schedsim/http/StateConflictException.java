package dev.schedsim.http;

/** A state change that does not apply to the simulation's status (answered 409). */
public class StateConflictException extends RuntimeException {
    public StateConflictException(String message) {
        super(message);
    }
}
