package dev.schedsim.engine.fair;

import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.sched.Weights;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * When the fair class asks for a reschedule (kernel/sched/fair.c): at a wakeup, check_preempt_wakeup_fair() at
 * the level where the woken and the current entity meet, after update_curr() (EEVDF: the woken one would be
 * picked, curr's protected slice honoured; CFS: it is ahead by more than the wakeup granularity); at the tick under CFS, check_preempt_tick() against sched_slice(). EEVDF's
 * tick-time preemption is update_deadline()'s, in {@link UpdateCurr}.
 */
public final class Preemption {
    private final RunQueues rqs;
    private final UpdateCurr updateCurr;
    private final Resched resched;
    private final Tunables tunables;
    private final FairQueue fairQueue;
    private final boolean eevdf; // EEVDF

    public Preemption(KernelConfig kernel, Tunables tunables, RunQueues rqs, UpdateCurr updateCurr,
                      Resched resched, FairQueue fairQueue) {
        this.rqs = rqs;
        this.fairQueue = fairQueue;
        this.updateCurr = updateCurr;
        this.resched = resched;
        this.tunables = tunables;
        this.eevdf = kernel.on(Feature.EEVDF);
    }

    /**
     * wakeup_preempt() (core.c) for a fair task: check_preempt_wakeup_fair(), then true when the CPU is marked for
     * __schedule() — the condition of its rq_clock_skip_update(), under which the woken task is charged from its
     * enqueue (HardwareModel.wakeClockSkipNs).
     */
    public boolean wakeupPreempt(Cpu cpu, Task p) {
        checkPreemptWakeupFair(cpu, p);
        return resched.marked(cpu);
    }

    /** check_preempt_wakeup_fair() at the level where the woken and current entities meet. */
    public void checkPreemptWakeupFair(Cpu cpu, Task p) {
        Task curr = cpu.curr;
        if (curr == null) {
            resched.reschedCurr(cpu);
            return;
        }
        if (curr == p || !p.se.onRq) {
            return;
        }
        Entity se = curr.se;
        Entity pse = p.se;
        // find_matching_se()
        int ds = se.cfsRq.tg.depth;
        int dp = pse.cfsRq.tg.depth;
        while (ds > dp) {
            se = se.parent;
            ds--;
        }
        while (dp > ds) {
            pse = pse.parent;
            dp--;
        }
        while (se.cfsRq != pse.cfsRq) {
            se = se.parent;
            pse = pse.parent;
        }
        if (!pse.onRq) {
            return;
        }
        updateCurr.updateCurr(cpu);
        if (eevdf) { // EEVDF
            // pick_next_entity(): a delayed entity picked here finishes its dequeue, and the pick goes on.
            Entity nse = Pick.pickEevdf(se.cfsRq);
            while (nse != null && nse.delayed) { // DELAY_DEQUEUE
                fairQueue.dequeueDelayed(nse, cpu);
                nse = Pick.pickEevdf(se.cfsRq);
            }
            if (nse == pse) {
                resched.reschedCurr(cpu);
            }
            // (update_protect_slice() when it does not preempt: with every slice the base slice it changes
            // nothing)
        } else {
            long vdiff = se.vruntime - pse.vruntime;
            if (vdiff > Weights.calcDeltaFair(tunables.wakeupGranularityNs(), pse.weight)) {
                resched.reschedCurr(cpu);
            }
        }
    }

    /** CFS check_preempt_tick() (6.1). */
    public void checkPreemptTick(Cpu cpu, CfsRq q, Entity curr) {
        long ideal = schedSlice(q, curr);
        long ran = curr.sumExec - curr.prevSumExec;
        if (ran > ideal) {
            resched.reschedCurr(cpu);
            return;
        }
        if (ran < tunables.minGranularityNs()) {
            return;
        }
        Entity left = Pick.pickFirstEntity(q);
        if (left != null && curr.vruntime - left.vruntime > ideal) {
            resched.reschedCurr(cpu);
        }
    }

    /** CFS sched_slice(): the period share of se at every level (ALT_PERIOD, BASE_SLICE). */
    private long schedSlice(CfsRq q, Entity se) {
        int nr = rqs.cpu(q.cpu).root.hNrRunning + (se.onRq ? 0 : 1);
        long slice = nr > 8 ? nr * tunables.minGranularityNs() : tunables.latencyNs();
        for (Entity e = se; e != null; e = e.parent) {
            CfsRq cq = e.cfsRq;
            long load = cq.load + (e.onRq ? 0 : e.weight);
            if (load > 0) {
                slice = slice * e.weight / load;
            }
        }
        return Math.max(slice, tunables.minGranularityNs());
    }
}
