package dev.schedsim.engine.api;

/** Thrown by {@code Engine.run} when its {@link RunControl} asked it to stop. */
public class RunCancelledException extends RuntimeException {
    public RunCancelledException() {
        super("simulation cancelled");
    }
}
