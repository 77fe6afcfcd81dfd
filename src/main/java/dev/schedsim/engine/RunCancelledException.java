package dev.schedsim.engine;

/** Thrown by {@link Engine#run} when its {@link RunControl} asked it to stop. */
public class RunCancelledException extends RuntimeException {
    public RunCancelledException() {
        super("simulation cancelled");
    }
}
