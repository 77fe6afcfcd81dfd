package dev.schedsim.engine;

/**
 * A {@code struct cfs_rq}: one task group's run queue on one CPU, with the bandwidth fields of
 * kernel-facts §1.1. Queued entities (curr included, as EEVDF keeps curr on_rq) are kept in a small array;
 * run queues hold few entities in practice, and the picks scan it.
 */
final class CfsRq {
    final TaskGroup tg;
    final int cpu;
    /** The group's entity on this CPU that represents this queue one level up; null for the root. */
    Entity se;
    /** The parent group's queue on this CPU; null for the root. */
    final CfsRq parent;

    Entity[] queue = new Entity[4];
    /** nr_queued (nr_running before 6.x): entities on this queue, curr included. */
    int nr;
    Entity curr;
    /** load.weight: Σ weight of queued entities. */
    long load;
    /** h_nr_running: tasks queued in this hierarchy. */
    int hNrRunning;
    long minVruntime;
    /**
     * avg_vruntime bookkeeping as the kernel keeps it: Σ w·(v − minVruntime) over the queued entities (curr
     * included); the total weight is {@link #load}.
     */
    long sumWv;
    /**
     * The smallest vruntime among the queued entities other than {@link #curr}, kept incrementally (valid unless
     * {@link #otherStale}): only curr's vruntime moves while it runs (update_curr), so this minimum changes only
     * when an entity joins or leaves the others (enqueue, dequeue, a new curr) or one of them is reweighted — and
     * is found again by one scan only when the entity holding it leaves or changes.
     */
    private long minOther;
    private boolean otherStale = true;
    /** When this queue last became empty (update_blocked_averages' leaf list). */
    long lastActiveNs = Long.MIN_VALUE / 2;
    /** On its CPU's leaf list ({@link Cpu#leaf}). */
    boolean onLeafList;

    // --- CFS bandwidth (kernel-facts §1.1) ---
    boolean runtimeEnabled;
    long runtimeRemaining;
    boolean throttled;
    /** This level or an ancestor is throttled. */
    int throttleCount;
    /** Start of this cfs_rq's own throttle (0 = not running), feeds cfs_b->throttled_time. */
    long throttledClock;
    boolean onThrottledList;
    /** SLICE_EXPIRATION (4.18): the local copy of the pool's expiry. */
    long runtimeExpires;
    long expiresSeq;
    /** 6.18 task-based throttle: tasks parked at their return to user ({@code throttled_limbo_list}). */
    Task[] limbo = new Task[2];
    int nLimbo;

    CfsRq(TaskGroup tg, int cpu, CfsRq parent) {
        this.tg = tg;
        this.cpu = cpu;
        this.parent = parent;
    }

    /** The smallest vruntime of a queued entity (curr included); only when {@code nr > 0}. */
    long minQueuedVruntime() {
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

    /** A queued entity's vruntime is about to change from {@code old}. */
    void vruntimeChanging(Entity e, long old) {
        if (e != curr && old == minOther) {
            otherStale = true;
        }
    }

    /** cfs_rq->curr = e: the previous curr, still queued, rejoins the others; e leaves them. */
    void setCurr(Entity e) {
        Entity old = curr;
        if (old == e) {
            return;
        }
        curr = e;
        if (old != null && old.onRq && old.vruntime < minOther) {
            minOther = old.vruntime;
        }
        if (e != null && e.vruntime == minOther) {
            otherStale = true;
        }
    }

    void add(Entity e) {
        if (e.vruntime < minOther) {
            minOther = e.vruntime;
        }
        sumWv += e.weight * (e.vruntime - minVruntime);
        if (nr == queue.length) {
            queue = java.util.Arrays.copyOf(queue, nr * 2);
        }
        e.index = nr;
        queue[nr++] = e;
    }

    void remove(Entity e) {
        vruntimeChanging(e, e.vruntime);
        sumWv -= e.weight * (e.vruntime - minVruntime);
        // Keep insertion order (deterministic scans): shift down.
        int i = e.index;
        System.arraycopy(queue, i + 1, queue, i, nr - i - 1);
        queue[--nr] = null;
        for (int k = i; k < nr; k++) {
            queue[k].index = k;
        }
        e.index = -1;
    }

    void park(Task t) {
        if (nLimbo == limbo.length) {
            limbo = java.util.Arrays.copyOf(limbo, nLimbo * 2);
        }
        limbo[nLimbo++] = t;
    }

    /** Takes a task off the limbo list (it exits while parked). */
    void unpark(Task t) {
        for (int i = 0; i < nLimbo; i++) {
            if (limbo[i] == t) {
                System.arraycopy(limbo, i + 1, limbo, i, nLimbo - i - 1);
                limbo[--nLimbo] = null;
                return;
            }
        }
    }

    boolean isRoot() {
        return parent == null;
    }
}
