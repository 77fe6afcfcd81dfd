package dev.schedsim.engine.fair;

import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;

/**
 * What the fair class asks of CPU bandwidth control: the hooks fair.c calls from update_curr(), enqueue, dequeue
 * and pick (kernel/sched/fair.c, "CFS bandwidth control machinery"). The fair class sees bandwidth only through
 * this; {@code engine.bandwidth} implements it and reaches into the fair class's run queues itself, so the two
 * packages do not import each other.
 */
public interface Bandwidth {
    /** cfs_bandwidth_used(): some group has a quota (the static key). */
    boolean used();

    /** What the hooks cost on {@code levels} levels of the hierarchy while the static key is on, ns. */
    long costNs(int levels);

    /** Charges the hooks on {@code levels} levels to the CPU. */
    void charge(Cpu cpu, int levels);

    /** account_cfs_rq_runtime(): debit {@code delta} of runtime, extending or throttling when it is gone. */
    void accountCfsRqRuntime(CfsRq q, long delta);

    /** check_cfs_rq_runtime(): throttle a cfs_rq whose runtime is gone; true when it is throttled. */
    boolean checkCfsRqRuntime(CfsRq q);

    /** check_enqueue_throttle() (6.1): a group waking up with no runtime is throttled at once. */
    void checkEnqueueThrottle(CfsRq q);

    /** throttle_cfs_rq_work() (6.18): the task reached its return to user in a throttled hierarchy. */
    void throttleCfsRqWork(Task p);

    /** return_cfs_rq_runtime() from dequeue_entity(): an emptied cfs_rq gives runtime back to the pool. */
    void returnCfsRqRuntime(CfsRq q);
}
