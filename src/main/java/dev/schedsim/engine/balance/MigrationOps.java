package dev.schedsim.engine.balance;

import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;

/**
 * What load balancing asks of kernel/sched/core.c to move a task ({@code core.Migration} implements it):
 * move_queued_task() for a queued task, and the stopper's push of a running one.
 */
public interface MigrationOps {
    /** move_queued_task() as load balancing does it: dequeue here, enqueue there, check preemption. */
    void moveQueuedTask(Task p, int dst);

    /** The stopper of active balancing preempts the running task on {@code src} and pushes it to dst. */
    void pushRunningTask(Cpu src, Task p, int dst);
}
