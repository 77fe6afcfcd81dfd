package dev.schedsim.engine.fair;

import dev.schedsim.engine.bandwidth.BandwidthHooks;
import dev.schedsim.engine.bandwidth.Throttle;
import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.core.Resched;
import dev.schedsim.engine.core.Task;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.stats.Recorder;

/**
 * update_curr() (kernel/sched/fair.c): the running task's time since it was last accounted goes to its CPU
 * time, its groups' cpu.stat usage, every level's vruntime and sum_exec_runtime (with EEVDF's update_deadline()),
 * and every limited level's runtime. Owns rq->curr's exec_start ({@code Cpu.execClock}).
 */
public final class UpdateCurr {
    private final SimClock clock;
    private final Execution execution;
    private final BandwidthHooks hooks;
    private final Throttle throttle;
    private final Recorder recorder;
    private final Resched resched;
    private final long updateCurrNs;
    private final boolean eevdf; // EEVDF
    private final boolean protectResched; // PROTECT_SLICE_RESCHED

    public UpdateCurr(KernelConfig kernel, HardwareModel hw, SimClock clock, Execution execution,
                      BandwidthHooks hooks, Throttle throttle, Recorder recorder, Resched resched) {
        this.clock = clock;
        this.execution = execution;
        this.hooks = hooks;
        this.throttle = throttle;
        this.recorder = recorder;
        this.resched = resched;
        this.updateCurrNs = hw.updateCurrNs();
        this.eevdf = kernel.on(Feature.EEVDF);
        this.protectResched = kernel.on(Feature.PROTECT_SLICE_RESCHED);
    }

    /** update_curr() on every level of the running task's hierarchy. */
    public void updateCurr(Cpu cpu) {
        Task p = cpu.curr;
        if (p == null) {
            return;
        }
        long now = clock.now;
        long delta = now - cpu.execClock;
        if (delta <= 0) {
            return;
        }
        cpu.execClock = now;
        p.cpuNs += delta;
        for (TaskGroup g = p.group; g != null; g = g.parent) {
            g.usageNs += delta;
        }
        recorder.addUsage(p.group, now - delta, now);
        // update_curr() itself runs once per level of the hierarchy, and so do the bandwidth hooks.
        int levels = p.group.depth + 1;
        execution.chargeOverhead(cpu, updateCurrNs * levels + hooks.costNs(levels));
        for (Entity se = p.se; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            se.sumExec += delta;
            long dv = Weights.calcDeltaFair(delta, se.weight);
            if (se.onRq) {
                q.keyChanging(se);
                q.sumWv += se.weight * dv;
            }
            se.vruntime += dv;
            if (eevdf) { // EEVDF
                boolean expired = se.vruntime >= se.deadline;
                if (expired) {
                    // update_deadline()
                    se.deadline = se.vruntime + Weights.calcDeltaFair(se.slice, se.weight);
                }
                if (q.nr > 1 && (expired || protectResched && se.vruntime >= se.vprot)) { // PROTECT_SLICE_RESCHED
                    resched.reschedCurr(cpu);
                }
            }
            if (se.onRq) {
                q.keyChanged(se);
            }
            Pick.updateMinVruntime(q);
            if (q.runtimeEnabled) {
                throttle.accountCfsRqRuntime(q, delta);
            }
        }
    }
}
