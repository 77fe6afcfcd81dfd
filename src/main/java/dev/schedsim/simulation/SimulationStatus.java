package dev.schedsim.simulation;

/** The life of a simulation job (api.md §2). */
public enum SimulationStatus {
    QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED;

    /** True once the job can no longer change. */
    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }
}
