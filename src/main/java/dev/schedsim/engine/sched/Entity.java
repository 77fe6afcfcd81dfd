package dev.schedsim.engine.sched;

/**
 * A {@code struct sched_entity}: a task's, or a task group's on one CPU. Virtual times are in nanoseconds of
 * NICE_0-weighted time; weights are unscaled (NICE_0 = 1024, {@code scale_load_down}).
 */
public final class Entity {
    /** The task this entity schedules, or null for a group entity. */
    public final Task task;
    /** A group entity's own run queue ({@code se->my_q}), or null for a task. */
    public final CfsRq my;
    /** The queue this entity is (or would be) enqueued on ({@code cfs_rq_of(se)}). */
    public CfsRq cfsRq;
    /** The group entity one level up ({@code se->parent}), null at the root level. */
    public Entity parent;

    /** se->load.weight: set at creation (a task's from its nice, a group entity's from its shares), then by reweight_entity(). */
    public long weight;
    public long vruntime;
    public long deadline;
    /** EEVDF: V − v saved at dequeue ({@code se->vlag}); CFS: vruntime relative to min_vruntime while off-queue. */
    public long vlag;
    public long slice;
    public boolean onRq;
    /** Position in {@code cfsRq.queue} while on_rq (array mode). */
    int index = -1;
    /** Enqueue order on its cfs_rq: ties in the picks break towards the earlier enqueue. */
    long seq;
    /** In its cfs_rq's {@link Timeline} (tree mode, not curr): children, treap priority, subtree's least vruntime. */
    boolean inTree;
    Entity tl;
    Entity tr;
    int tprio;
    public Entity tmin;
    public long sumExec;
    public long prevSumExec;
    /**
     * RUN_TO_PARITY ({@code se->vprot}, set_protect_slice()): the vruntime up to which curr keeps the CPU against
     * wakeups, its deadline when it was switched in (every slice is the base slice here, so vprot is the
     * deadline); a task picked again without a switch keeps the old, passed value, as the kernel does.
     */
    public long vprot = Long.MIN_VALUE;
    /**
     * DELAY_DEQUEUE ({@code se->sched_delayed}): the entity went to sleep while not eligible and stays queued,
     * competing for its negative lag, until it is picked (and then dequeued) or woken.
     */
    public boolean delayed;
    /** The entity has never been enqueued (PLACE_DEADLINE_INITIAL / START_DEBIT). */
    public boolean fresh = true;

    public Entity(Task task, CfsRq my) {
        this(task, my, Weights.NICE_0_LOAD);
    }

    /** init_tg_cfs_entry() / __sched_fork(): an entity of {@code weight}. */
    public Entity(Task task, CfsRq my, long weight) {
        this.task = task;
        this.my = my;
        this.weight = weight;
    }
}
