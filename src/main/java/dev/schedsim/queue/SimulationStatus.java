package dev.schedsim.queue;

/** The life of a simulation job (docs/api.md, "A simulation's life"). */
public enum SimulationStatus {
    QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED;

    /** True once the job can no longer change. */
    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }
}
