package dev.schedsim.engine.balance;

import dev.schedsim.engine.topology.Topology;

/**
 * The busiest run queue's lock as sched_balance_rq() (load_balance() before 6.10) takes it:
 * {@code rq_lock_irqsave(busiest)}, update_rq_clock(), detach_tasks(), {@code rq_unlock(busiest)}. What the
 * balancing CPU pays for that section emerges from the lines it reads and waits for (issue 34):
 *
 * <ul>
 *   <li>the lock's line, last written by the busiest CPU itself (its own schedule() and wakeups take it) or by the
 *       balancer that held it before: one transfer by distance;</li>
 *   <li>each task detach_tasks() examines: can_migrate_task() and task_hot() read the task's
 *       {@code se.group_node}/{@code se.exec_start}, {@code cpus_mask} and {@code on_cpu}
 *       ({@value #EXAMINE_LINES} lines), last written on the busiest CPU where the task was queued;</li>
 *   <li>each task it detaches: deactivate_task() dequeues it at every level of its task group hierarchy, a
 *       sched_entity and its cfs_rq's load and average ({@value #DEQUEUE_LINES_PER_LEVEL} lines a level), all last
 *       written on the busiest CPU;</li>
 *   <li>the wait: balancers that picked the same busiest queue hold its lock one after the other (a ticket lock),
 *       so a CPU arriving while another is detaching spins until that one unlocks. Many CPUs going idle together
 *       all find the same busiest run queue (find_busiest_queue() is deterministic), which is what makes a rare
 *       newidle balance dear.</li>
 * </ul>
 *
 * <p>Transfers are {@code lineTransferNs} by distance (0 same core, 1 same LLC, 2 same socket, 3 another socket).
 * Only balancers are modelled as holders: the busiest CPU's own hold times (schedule(), a remote wakeup's
 * enqueue) are not, and a balancer asks for the lock after its own level's scan, not after the levels below it that
 * the same newidle call balanced first; and the engine applies each balance's detach at once, so a balancer that
 * arrives while another holds the lock already sees the tasks that one took (the kernel's saw them still queued, and
 * queued for the lock too): the wait is a lower bound.
 */
final class BusiestRqLock {
    /** Lines can_migrate_task() reads of a task it examines (see the class comment). */
    static final int EXAMINE_LINES = 3;
    /** Lines deactivate_task() writes per level of the detached task's hierarchy (see the class comment). */
    static final int DEQUEUE_LINES_PER_LEVEL = 2;

    private final Topology topo;
    private final long[] transferNs;
    /** Per run queue: when the last balancer that held its lock lets it go. */
    private final long[] freeAt;
    /** Per run queue: the balancer that held it last, or -1 (the queue's own CPU has the line). */
    private final int[] lastHolder;

    BusiestRqLock(Topology topo, long[] transferNs, int cpus) {
        this.topo = topo;
        this.transferNs = transferNs.clone();
        this.freeAt = new long[cpus];
        this.lastHolder = new int[cpus];
        java.util.Arrays.fill(freeAt, Long.MIN_VALUE / 2);
        java.util.Arrays.fill(lastHolder, -1);
    }

    /**
     * The CPU time {@code dst} spends in the locked section on {@code src}'s queue, asking for the lock at
     * {@code at}, having examined {@code examined} tasks and detached tasks with {@code detachedLevels} hierarchy
     * levels in all: the wait for the holder before it, the lock's line, the tasks' lines.
     */
    long lockedSection(int dst, int src, long at, int examined, int detachedLevels) {
        int d = BalanceSerialize.distance(topo, dst, src);
        long wait = Math.max(0, freeAt[src] - at);
        int from = freeAt[src] > at && lastHolder[src] >= 0 ? lastHolder[src] : src;
        long lock = transferNs[BalanceSerialize.distance(topo, dst, from)];
        long hold = lock + (long) (EXAMINE_LINES * examined + DEQUEUE_LINES_PER_LEVEL * detachedLevels)
                * transferNs[d];
        freeAt[src] = at + wait + hold;
        lastHolder[src] = dst;
        return wait + hold;
    }
}
