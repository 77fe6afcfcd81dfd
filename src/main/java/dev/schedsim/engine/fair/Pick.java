package dev.schedsim.engine.fair;

import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.Timeline;

/**
 * The picks of kernel/sched/fair.c and the virtual-time bookkeeping they need: EEVDF's average vruntime,
 * eligibility and pick, CFS's leftmost pick, and min_vruntime.
 */
public final class Pick {
    private Pick() {
    }

    /**
     * avg_vruntime(): V = Σ w_i·v_i / Σ w_i over the queued entities (curr included), rounded down so an entity
     * exactly at V is eligible; min_vruntime when the queue is empty.
     */
    public static long avgVruntime(CfsRq q) {
        if (q.nr == 0) {
            return q.minVruntime;
        }
        return q.minVruntime + Math.floorDiv(q.sumWv, q.load);
    }

    /**
     * pick_eevdf(): the eligible entity with the earliest virtual deadline; curr keeps the CPU while it is
     * protected (RUN_TO_PARITY, protect_slice(): its vruntime is short of {@link Entity#vprot}; 6.6–6.16 kept a
     * copy of the deadline instead, which with equal slices ends at the same point). May return a delayed
     * entity, which the caller dequeues (pick_next_entity()).
     */
    public static Entity pickEevdf(CfsRq q) {
        int n = q.nr;
        if (n == 0) {
            return null;
        }
        Entity[] a = q.queue;
        if (n == 1) { // (a queue in tree mode holds at least ARRAY_AT)
            return a[0];
        }
        long base = q.minVruntime;
        long sum = q.sumWv;
        long w = q.load;
        Entity curr = q.curr;
        if (curr != null && (!curr.onRq || (curr.vruntime - base) * w > sum)) {
            curr = null;
        }
        if (curr != null && curr.vruntime < curr.vprot) {
            return curr;
        }
        Entity best = null;
        if (q.treeMode) {
            // __pick_eevdf(): the heap search down the deadline-sorted tree.
            best = Timeline.firstEligible(q.timeline, base, sum, w);
        } else {
            Entity qc = q.curr;
            for (int i = 0; i < n; i++) {
                Entity e = a[i];
                if (e != qc && (e.vruntime - base) * w <= sum && (best == null || e.deadline < best.deadline)) {
                    best = e;
                }
            }
        }
        if (best == null || (curr != null && curr.deadline < best.deadline)) {
            best = curr;
        }
        // (nothing eligible, which only rounding can cause: the leftmost)
        return best != null ? best : pickNextEntity(q);
    }

    /** entity_eligible(): lag ≥ 0, V ≥ v (with V's left bias). */
    public static boolean entityEligible(CfsRq q, Entity se) {
        return (se.vruntime - q.minVruntime) * q.load <= q.sumWv;
    }

    /** CFS pick_next_entity() (6.1, without buddies): the smallest vruntime, curr included. */
    public static Entity pickNextEntity(CfsRq q) {
        if (q.treeMode) {
            return leftmost(q);
        }
        Entity best = null;
        for (int i = 0; i < q.nr; i++) {
            Entity e = q.queue[i];
            if (best == null || e.vruntime < best.vruntime) {
                best = e;
            }
        }
        return best;
    }

    /** __pick_first_entity() with curr out of the tree (CFS): the leftmost entity other than curr. */
    public static Entity pickFirstEntity(CfsRq q) {
        if (q.treeMode) {
            return q.timeline == null ? null : q.timeline.tmin;
        }
        Entity best = null;
        for (int i = 0; i < q.nr; i++) {
            Entity e = q.queue[i];
            if (e != q.curr && (best == null || e.vruntime < best.vruntime)) {
                best = e;
            }
        }
        return best;
    }

    /** Tree mode: the queued entity of least (vruntime, enqueue order), curr included. */
    private static Entity leftmost(CfsRq q) {
        Entity best = q.timeline == null ? null : q.timeline.tmin;
        Entity curr = q.curr;
        if (curr != null && curr.onRq && (best == null || Timeline.lowerVruntime(curr, best))) {
            best = curr;
        }
        return best;
    }

    /** update_min_vruntime(): monotonic max of min_vruntime and the smallest queued vruntime. */
    public static void updateMinVruntime(CfsRq q) {
        if (q.nr == 0) {
            return;
        }
        long min = q.minQueuedVruntime();
        if (min > q.minVruntime) {
            // The sum is kept relative to min_vruntime: move its base with it.
            q.sumWv -= q.load * (min - q.minVruntime);
            q.minVruntime = min;
        }
    }
}
