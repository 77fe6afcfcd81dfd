package dev.schedsim.engine.sched;

/** Where a task is (the model's summary of p->__state and p->on_rq). */
public enum TaskState {
    /** Created, not started yet (a delayed start). */
    NEW,
    /** Queued on a run queue, not running. */
    RUNNABLE,
    /** rq->curr of its CPU. */
    RUNNING,
    /** Sleeping on a timer. */
    SLEEPING,
    /** Blocked until another task wakes it. */
    BLOCKED,
    /** Parked on a throttled cfs_rq's limbo list (6.18 task-based throttle). */
    THROTTLED,
    /** Exited. */
    DONE;

    private static final TaskState[] VALUES = values();

    static TaskState of(int ordinal) {
        return VALUES[ordinal];
    }
}
