package dev.schedsim.api;

/** An unknown simulation, preset or topology: 404. */
class NotFoundException extends RuntimeException {
    NotFoundException(String what) {
        super(what);
    }
}
