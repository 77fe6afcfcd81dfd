package dev.schedsim.engine.fair;

import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.sched.Weights;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * A group entity's weight from its group's shares (kernel/sched/fair.c's update_cfs_group() with
 * calc_group_shares(), on instantaneous run-queue weights rather than PELT load averages), reweight_entity(), and
 * a task's weight as seen from the root (task_h_load()).
 */
public final class GroupShares {
    private final boolean eevdf; // EEVDF
    private final boolean delayDequeue; // DELAY_DEQUEUE
    private final boolean reweightPlace; // REWEIGHT_PLACE_ENTITY
    private final boolean lagClampMaxSlice; // LAG_CLAMP_MAX_SLICE
    private final long tickNs;

    public GroupShares(KernelConfig kernel) {
        this.eevdf = kernel.on(Feature.EEVDF);
        this.delayDequeue = kernel.on(Feature.DELAY_DEQUEUE);
        this.reweightPlace = eevdf && kernel.on(Feature.REWEIGHT_PLACE_ENTITY);
        this.tickNs = kernel.tickNs();
        this.lagClampMaxSlice = kernel.on(Feature.LAG_CLAMP_MAX_SLICE);
    }

    /**
     * update_cfs_group() with calc_group_shares() on instantaneous run-queue weights. A group whose queue is empty
     * keeps its weight where DELAY_DEQUEUE is (66951e4860d3 "sched/fair: Fix update_cfs_group() vs
     * DELAY_DEQUEUE", v6.13 and 6.12.y: a delayed group entity competes at the weight it had, so its lag is not
     * scaled by the shares of an empty queue), and a throttled hierarchy keeps its weight in every kernel
     * (throttled_hierarchy(gcfs_rq)).
     */
    public void updateCfsGroup(Entity se) {
        CfsRq my = se.my;
        if ((delayDequeue && my.load == 0) || my.throttleCount > 0) { // DELAY_DEQUEUE
            return;
        }
        TaskGroup tg = my.tg;
        long shares;
        if (tg.totalLoad > 0) {
            shares = tg.shares * my.load / tg.totalLoad;
        } else {
            shares = tg.shares;
        }
        shares = Math.max(Weights.MIN_SHARES, Math.min(shares, tg.shares));
        reweightEntity(se, shares);
    }

    /** reweight_entity(): keeps the entity's lag and relative deadline across a weight change. */
    private void reweightEntity(Entity se, long w) {
        long old = se.weight;
        if (w == old) {
            return;
        }
        if (se.onRq && reweightPlace) { // REWEIGHT_PLACE_ENTITY (with EEVDF)
            reweightPlacing(se, old, w);
            return;
        }
        if (se.onRq) {
            CfsRq q = se.cfsRq;
            long v = eevdf ? Pick.avgVruntime(q) : 0; // EEVDF
            q.sumWv -= old * (se.vruntime - q.minVruntime);
            if (eevdf) { // EEVDF
                long lag = v - se.vruntime;
                long rel = se.deadline - se.vruntime;
                // (rel_vprot: curr's protection is kept relative too)
                boolean protectedCurr = q.curr == se && se.vruntime < se.vprot;
                long relProt = se.vprot - se.vruntime;
                q.keyChanging(se);
                se.vruntime = v - lag * old / w;
                se.deadline = se.vruntime + rel * old / w;
                q.keyChanged(se);
                if (protectedCurr) {
                    se.vprot = se.vruntime + relProt * old / w;
                }
            }
            q.load += w - old;
            q.sumWv += w * (se.vruntime - q.minVruntime);
            if (!q.tg.isRoot()) {
                q.tg.totalLoad += w - old;
            }
        } else if (eevdf) { // EEVDF
            se.vlag = se.vlag * old / w;
        }
        se.weight = w;
    }

    /**
     * reweight_entity() of a queued entity from 6d71a9c61604 (v6.13) to its revert: update_entity_lag() (clamped
     * to {@link FairQueue#lagLimit}, as the dequeue clamps it), the lag and the relative deadline
     * scaled by old/new weight, and place_entity(cfs_rq, se, 0) with the entity out of the sums: V and the load it
     * inflates the lag by are the other entities' — and, when the entity is curr, avg_vruntime() and the load count
     * it again at its new weight (curr is never out of them), which the revert's message calls the bug.
     */
    private void reweightPlacing(Entity se, long old, long w) {
        CfsRq q = se.cfsRq;
        long limit = FairQueue.lagLimit(se, old, tickNs, lagClampMaxSlice);
        long lag = Math.max(-limit, Math.min(limit, Pick.avgVruntime(q) - se.vruntime));
        long rel = se.deadline - se.vruntime;
        boolean curr = q.curr == se;
        boolean protectedCurr = curr && se.vruntime < se.vprot;
        long relProt = se.vprot - se.vruntime;
        q.keyChanging(se);
        q.sumWv -= old * (se.vruntime - q.minVruntime);
        q.load -= old;
        lag = lag * old / w;
        rel = rel * old / w;
        relProt = relProt * old / w;
        long sum = q.sumWv;
        long load = q.load;
        if (curr) {
            sum += w * (se.vruntime - q.minVruntime);
            load += w;
        }
        long v = load == 0 ? q.minVruntime : q.minVruntime + Math.floorDiv(sum, load);
        if (lag != 0) { // (PLACE_LAG; nr_queued still counts the entity)
            lag = lag * (load + w) / Math.max(load, 1);
        }
        se.vruntime = v - lag;
        se.deadline = se.vruntime + rel;
        if (protectedCurr) {
            se.vprot = se.vruntime + relProt;
        }
        se.weight = w;
        q.load += w;
        q.sumWv += w * (se.vruntime - q.minVruntime);
        q.keyChanged(se);
        if (!q.tg.isRoot()) {
            q.tg.totalLoad += w - old;
        }
    }

    /** task_h_load(): the task's weight as seen from the root, through each group's share. */
    public static long taskHLoad(Task p) {
        long w = p.se.weight;
        for (Entity se = p.se; se.parent != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            w = q.load == 0 ? w : w * se.parent.weight / q.load;
        }
        return w;
    }
}
