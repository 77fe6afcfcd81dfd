package dev.schedsim.engine.select;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.GroupShares;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.topology.Topology;

/**
 * select_task_rq_fair() for a wakeup (kernel/sched/fair.c; SD_BALANCE_WAKE is never set, so
 * always the fast path): wake_wide(), wake_affine() (WA_IDLE, then WA_WEIGHT on PELT loads), then
 * {@link SelectIdleSibling#selectIdleSibling}; with VCPU_PACK (not mainline) {@link VcpuPack} first. Owns each
 * task's wakee-flip bookkeeping.
 */
public final class SelectTaskRq {
    private final Cpu[] cpus;
    private final Topology topo;
    private final SimClock clock;
    private final LoadTracking pelt;
    private final SelectIdleSibling sis;
    private final DomainLevel[] levels;
    private final VcpuPack vcpuPack; // VCPU_PACK (null: off)

    public SelectTaskRq(KernelConfig kernel, Cpu[] cpus, Topology topo, SimClock clock, LoadTracking pelt,
                        SelectIdleSibling sis) {
        this.cpus = cpus;
        this.topo = topo;
        this.clock = clock;
        this.pelt = pelt;
        this.sis = sis;
        this.levels = topo.levels().toArray(new DomainLevel[0]);
        this.vcpuPack = kernel.on(Feature.VCPU_PACK) ? new VcpuPack(cpus, pelt) : null;
    }

    /** select_task_rq_fair(): the CPU p wakes on, woken from {@code thisCpu} by {@code waker} (may be null). */
    public int selectTaskRqFair(Task p, int thisCpu, Task waker, boolean sync) {
        int prev = p.cpu;
        if (!p.allowedOn(prev)) {
            prev = selectFallbackRq(p);
        }
        if (vcpuPack != null) { // VCPU_PACK: before anything else, record_wakee() included
            int packed = vcpuPack.selectPacked(p, prev, thisCpu, waker, sync);
            if (packed >= 0) {
                return packed;
            }
        }
        boolean wantAffine = false;
        if (waker != null) {
            recordWakee(waker, p);
            wantAffine = !wakeWide(waker, p) && p.allowedOn(thisCpu);
        }
        int target = prev;
        if (wantAffine && thisCpu != prev) {
            for (DomainLevel l : levels) {
                if (!l.wakeAffine()) {
                    break;
                }
                int[] spanOf = l.spanOf();
                if (spanOf[thisCpu] == spanOf[prev]) {
                    target = wakeAffine(p, thisCpu, prev, sync, l.imbalancePct());
                    break;
                }
            }
        }
        int cpu = sis.selectIdleSibling(p, prev, target, thisCpu);
        return p.allowedOn(cpu) ? cpu : selectFallbackRq(p);
    }

    /** select_fallback_rq(): the first allowed CPU. */
    private int selectFallbackRq(Task p) {
        for (int c = 0; c < cpus.length; c++) {
            if (p.allowedOn(c)) {
                return c;
            }
        }
        return 0;
    }

    /** record_wakee(): count wakee flips, halved once a second. */
    private void recordWakee(Task waker, Task p) {
        long now = clock.now;
        if (now > waker.wakeeFlipDecayTs + 1_000_000_000L) {
            waker.wakeeFlips >>= 1;
            waker.wakeeFlipDecayTs = now;
        }
        if (waker.lastWakee != p) {
            waker.lastWakee = p;
            waker.wakeeFlips++;
        }
    }

    /** wake_wide(): 1 when waker and wakee both switch partners often relative to the LLC size. */
    private boolean wakeWide(Task waker, Task p) {
        int master = waker.wakeeFlips;
        int slave = p.wakeeFlips;
        int factor = topo.llcSpan(waker.cpu).length;
        if (master < slave) {
            int t = master;
            master = slave;
            slave = t;
        }
        return !(slave < factor || master < slave * factor);
    }

    /** wake_affine(): WA_IDLE then WA_WEIGHT; anything but this_cpu means prev. */
    private int wakeAffine(Task p, int thisCpu, int prev, boolean sync, int imbalancePct) {
        int idle = wakeAffineIdle(thisCpu, prev, sync);
        if (idle >= 0) {
            return idle;
        }
        return wakeAffineWeight(p, thisCpu, prev, sync, imbalancePct);
    }

    /** wake_affine_idle(): an idle this_cpu or prev, or a sync wakeup from a CPU running only the waker; else -1. */
    private int wakeAffineIdle(int thisCpu, int prev, boolean sync) {
        if (cpus[thisCpu].idle() && topo.sharesLlc(thisCpu, prev)) {
            return cpus[prev].idle() ? prev : thisCpu;
        }
        if (sync && cpus[thisCpu].nrRunning == 1) {
            return thisCpu;
        }
        if (cpus[prev].idle()) {
            return prev;
        }
        return -1;
    }

    /**
     * task_h_load(): the task's PELT load as the root cfs_rq sees it, the part of its group's share it carries on
     * its CPU. The model keeps no PELT signal for group cfs_rqs, so the ratio is the weight one of
     * {@link GroupShares#taskHLoad} (1 for a task of the root group). Comparing a grouped task's own load with
     * cpu_load(), which holds only its group entity's share, made WA_WEIGHT's sync shortcut
     * ({@code current_load > this_eff_load}) pick the waker's CPU for almost every wakeup in a group.
     */
    private static long taskHLoad(Task p) {
        long load = p.pelt.loadAvg();
        if (p.group.isRoot() || p.se.weight == 0) {
            return load;
        }
        return load * GroupShares.taskHLoad(p) / p.se.weight;
    }

    /** wake_affine_weight() on PELT loads (cpu_load, task_h_load). */
    private int wakeAffineWeight(Task p, int thisCpu, int prev, boolean sync, int imbalancePct) {
        Cpu thisRq = cpus[thisCpu];
        Cpu prevRq = cpus[prev];
        pelt.updateLoadAvg(thisRq);
        pelt.updateLoadAvg(prevRq);
        long taskLoad = taskHLoad(p);
        long thisEff = thisRq.pelt.loadAvg();
        if (sync) {
            Task waker = thisRq.curr;
            long current = waker == null ? 0 : taskHLoad(waker);
            if (current > thisEff) {
                return thisCpu;
            }
            thisEff -= current;
        }
        thisEff += taskLoad;
        thisEff *= 100;
        long prevEff = Math.max(0, prevRq.pelt.loadAvg() - taskLoad);
        prevEff *= 100 + (imbalancePct - 100) / 2;
        if (sync) {
            prevEff += 1;
        }
        return thisEff < prevEff ? thisCpu : prev;
    }
}
