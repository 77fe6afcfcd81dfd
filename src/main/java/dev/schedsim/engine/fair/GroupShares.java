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

    public GroupShares(KernelConfig kernel) {
        this.eevdf = kernel.on(Feature.EEVDF);
        this.delayDequeue = kernel.on(Feature.DELAY_DEQUEUE);
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
