package dev.schedsim.engine.sched;

/**
 * A {@code struct cfs_rq}: one task group's run queue on one CPU, with the bandwidth fields of CONFIG_CFS_BANDWIDTH
 * (kernel/sched/sched.h). A short queue keeps its entities (curr included, as EEVDF keeps curr on_rq) in an array in
 * enqueue order, which the picks scan: run queues hold few entities in practice, and a scan of a few is cheaper than a
 * tree. A queue that grows to {@link #TREE_AT} entities moves them into a {@link Timeline} (the kernel's {@code
 * tasks_timeline}, curr kept out of it as {@code set_next_entity()} does) and goes back to the array when it falls
 * under {@link #ARRAY_AT}. Both give the same answers: ties break by enqueue order.
 */
public final class CfsRq {
    public final TaskGroup tg;
    public final int cpu;
    /** The group's entity on this CPU that represents this queue one level up; null for the root. */
    public Entity se;
    /** The parent group's queue on this CPU; null for the root. */
    public final CfsRq parent;

    /** Array mode: the queued entities, curr included, in enqueue order (empty in tree mode). */
    public Entity[] queue = new Entity[4];
    /** Tree mode: the root of the {@link Timeline} of the queued entities other than curr (null if none). */
    public Entity timeline;
    public boolean treeMode;
    /** The enqueue order given to the next entity added ({@link Entity#seq}). */
    private long nextSeq;
    /** nr_queued (nr_running before 6.x): entities on this queue, curr included. */
    public int nr;
    public Entity curr;
    /** load.weight: Σ weight of queued entities. */
    public long load;
    /** h_nr_running: tasks queued in this hierarchy. */
    public int hNrRunning;
    public long minVruntime;
    /**
     * avg_vruntime bookkeeping as the kernel keeps it: Σ w·(v − minVruntime) over the queued entities (curr
     * included); the total weight is {@link #load}.
     */
    public long sumWv;
    /**
     * The smallest vruntime among the queued entities other than {@link #curr}, kept incrementally (valid unless
     * {@link #otherStale}): only curr's vruntime moves while it runs (update_curr), so this minimum changes only
     * when an entity joins or leaves the others (enqueue, dequeue, a new curr) or one of them is reweighted — and
     * is found again by one scan only when the entity holding it leaves or changes. Array mode only: in tree mode
     * the tree's root carries the minimum.
     */
    private long minOther;
    private boolean otherStale = true;
    /** When this queue last became empty (update_blocked_averages' leaf list). */
    public long lastActiveNs = Long.MIN_VALUE / 2;
    /** On its CPU's leaf list ({@code Cpu.leaf}). */
    boolean onLeafList;

    // --- CFS bandwidth (struct cfs_rq's CONFIG_CFS_BANDWIDTH fields, kernel/sched/sched.h) ---
    public boolean runtimeEnabled;
    public long runtimeRemaining;
    public boolean throttled;
    /** This level or an ancestor is throttled. */
    public int throttleCount;
    /** Start of this cfs_rq's own throttle (0 = not running), feeds cfs_b->throttled_time. */
    public long throttledClock;
    public boolean onThrottledList;
    /** SLICE_EXPIRATION (4.18): the local copy of the pool's expiry. */
    public long runtimeExpires;
    public long expiresSeq;
    /** 6.18 task-based throttle: tasks parked at their return to user ({@code throttled_limbo_list}). */
    public Task[] limbo = new Task[2];
    public int nLimbo;

    /** A queue this long moves into the tree; one in tree mode this short goes back to the array. */
    public static final int TREE_AT = 32;
    public static final int ARRAY_AT = 16;

    public CfsRq(TaskGroup tg, int cpu, CfsRq parent) {
        this.tg = tg;
        this.cpu = cpu;
        this.parent = parent;
    }

    /** The smallest vruntime of a queued entity (curr included); only when {@code nr > 0}. */
    public long minQueuedVruntime() {
        if (treeMode) {
            long min = timeline == null ? Long.MAX_VALUE : timeline.tmin.vruntime;
            return curr != null && curr.onRq ? Math.min(min, curr.vruntime) : min;
        }
        if (otherStale) {
            long min = Long.MAX_VALUE;
            for (int i = 0; i < nr; i++) {
                Entity e = queue[i];
                if (e != curr) {
                    min = Math.min(min, e.vruntime);
                }
            }
            minOther = min;
            otherStale = false;
        }
        return curr != null && curr.onRq ? Math.min(minOther, curr.vruntime) : minOther;
    }

    /**
     * A queued entity's vruntime or deadline is about to change (update_curr, reweight_entity): out of the tree
     * until {@link #keyChanged} puts it back, or (array mode) the cached minimum is dropped if it held it.
     */
    public void keyChanging(Entity e) {
        if (treeMode) {
            unlink(e);
            return;
        }
        if (e != curr && e.vruntime == minOther) {
            otherStale = true;
        }
    }

    /** The queued entity {@link #keyChanging} was told about has its new vruntime and deadline. */
    public void keyChanged(Entity e) {
        if (e == curr) {
            return;
        }
        if (treeMode) {
            if (!e.inTree) {
                link(e);
            }
        } else if (e.vruntime < minOther) {
            // (reweight_entity() can move an entity back, below the others' minimum)
            minOther = e.vruntime;
        }
    }

    /** cfs_rq->curr = e: the previous curr, still queued, rejoins the others; e leaves them. */
    public void setCurr(Entity e) {
        Entity old = curr;
        if (old == e) {
            return;
        }
        curr = e;
        if (treeMode) {
            // set_next_entity() / put_prev_entity(): curr is kept out of the tree.
            if (old != null && old.onRq) {
                link(old);
            }
            if (e != null) {
                unlink(e);
            }
            return;
        }
        if (old != null && old.onRq && old.vruntime < minOther) {
            minOther = old.vruntime;
        }
        if (e != null && e.vruntime == minOther) {
            otherStale = true;
        }
    }

    public void add(Entity e) {
        e.seq = nextSeq++;
        sumWv += e.weight * (e.vruntime - minVruntime);
        if (treeMode) {
            nr++;
            if (e != curr) {
                link(e);
            }
            return;
        }
        if (e.vruntime < minOther) {
            minOther = e.vruntime;
        }
        if (nr == queue.length) {
            queue = java.util.Arrays.copyOf(queue, nr * 2);
        }
        e.index = nr;
        queue[nr++] = e;
        if (nr >= TREE_AT) {
            toTree();
        }
    }

    public void remove(Entity e) {
        sumWv -= e.weight * (e.vruntime - minVruntime);
        if (treeMode) {
            unlink(e);
            nr--;
            if (nr < ARRAY_AT) {
                toArray(e);
            }
            return;
        }
        keyChanging(e);
        // Keep insertion order (deterministic scans): shift down, in one loop with the indices. (Not
        // System.arraycopy: on a reference array of a few entries its call and the collector's card marking of the
        // range cost more than the copy, 2.5 % of the 256-CPU benchmark.)
        Entity[] a = queue;
        int last = --nr;
        for (int k = e.index; k < last; k++) {
            Entity x = a[k + 1];
            a[k] = x;
            x.index = k;
        }
        a[last] = null;
        e.index = -1;
    }

    private void link(Entity e) {
        e.tprio = Timeline.priority(e.seq);
        timeline = Timeline.insert(timeline, e);
        e.inTree = true;
    }

    private void unlink(Entity e) {
        if (e.inTree) {
            timeline = Timeline.delete(timeline, e);
            e.inTree = false;
        }
    }

    /** The array's entities other than curr into the tree. */
    private void toTree() {
        for (int i = 0; i < nr; i++) {
            Entity e = queue[i];
            queue[i] = null;
            e.index = -1;
            if (e != curr) {
                link(e);
            }
        }
        treeMode = true;
    }

    /** The tree's entities, and curr unless it is the one leaving ({@code gone}), back into the array. */
    private void toArray(Entity gone) {
        if (queue.length < nr) {
            queue = new Entity[Math.max(4, Integer.highestOneBit(nr) * 2)];
        }
        int k = Timeline.collect(timeline, queue, 0);
        if (curr != null && curr != gone && curr.onRq) {
            queue[k++] = curr;
        }
        if (k != nr) {
            throw new IllegalStateException("run queue holds " + k + " entities, counts " + nr);
        }
        java.util.Arrays.sort(queue, 0, k, (a, b) -> Long.compare(a.seq, b.seq));
        for (int i = 0; i < k; i++) {
            Entity x = queue[i];
            x.index = i;
            x.inTree = false;
            x.tl = null;
            x.tr = null;
            x.tmin = null;
        }
        timeline = null;
        treeMode = false;
        otherStale = true;
    }

    public void park(Task t) {
        if (nLimbo == limbo.length) {
            limbo = java.util.Arrays.copyOf(limbo, nLimbo * 2);
        }
        limbo[nLimbo++] = t;
    }

    /** Takes a task off the limbo list (it exits while parked). */
    public void unpark(Task t) {
        for (int i = 0; i < nLimbo; i++) {
            if (limbo[i] == t) {
                System.arraycopy(limbo, i + 1, limbo, i, nLimbo - i - 1);
                limbo[--nLimbo] = null;
                return;
            }
        }
    }

    public boolean isRoot() {
        return parent == null;
    }
}
