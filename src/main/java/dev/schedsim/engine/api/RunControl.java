package dev.schedsim.engine.api;

/**
 * The hook through which the caller watches and stops a run. Called from the engine's thread every few
 * thousand events; implementations must be cheap.
 */
public interface RunControl {
    /** True when the caller wants the run to stop; the engine then throws {@link RunCancelledException}. */
    boolean cancelled();

    /** Progress: simulated time reached and events processed so far. */
    void progress(long simulatedUs, long events);

    /** A control that never cancels and ignores progress. */
    RunControl NONE = new RunControl() {
        @Override
        public boolean cancelled() {
            return false;
        }

        @Override
        public void progress(long simulatedUs, long events) {
        }
    };
}
