package dev.schedsim.engine;

/**
 * A {@code struct sched_entity}: a task's, or a task group's on one CPU. Virtual times are in nanoseconds of
 * NICE_0-weighted time; weights are unscaled (NICE_0 = 1024, {@code scale_load_down}).
 */
final class Entity {
    /** The task this entity schedules, or null for a group entity. */
    final Task task;
    /** A group entity's own run queue ({@code se->my_q}), or null for a task. */
    final CfsRq my;
    /** The queue this entity is (or would be) enqueued on ({@code cfs_rq_of(se)}). */
    CfsRq cfsRq;
    /** The group entity one level up ({@code se->parent}), null at the root level. */
    Entity parent;

    long weight = 1024;
    long vruntime;
    long deadline;
    /** EEVDF: V − v saved at dequeue ({@code se->vlag}); CFS: vruntime relative to min_vruntime while off-queue. */
    long vlag;
    long slice;
    boolean onRq;
    /** Position in {@code cfsRq.queue} while on_rq (array mode). */
    int index = -1;
    /** Enqueue order on its cfs_rq: ties in the picks break towards the earlier enqueue. */
    long seq;
    /** In its cfs_rq's {@link Timeline} (tree mode, not curr): children, treap priority, subtree's least vruntime. */
    boolean inTree;
    Entity tl;
    Entity tr;
    int tprio;
    Entity tmin;
    long sumExec;
    long prevSumExec;
    /** RUN_TO_PARITY: the deadline curr had when picked; curr is protected while its deadline is unchanged. */
    long protectDeadline = Long.MIN_VALUE;
    /** The entity has never been enqueued (PLACE_DEADLINE_INITIAL / START_DEBIT). */
    boolean fresh = true;

    Entity(Task task, CfsRq my) {
        this.task = task;
        this.my = my;
    }
}
