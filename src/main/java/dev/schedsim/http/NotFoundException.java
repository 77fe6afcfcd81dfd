package dev.schedsim.http;

/** An unknown simulation, preset or topology: 404. */
public class NotFoundException extends RuntimeException {
    public NotFoundException(String what) {
        super(what);
    }
}
