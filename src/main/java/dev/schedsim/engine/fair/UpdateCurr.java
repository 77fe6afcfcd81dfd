package dev.schedsim.engine.fair;

import dev.schedsim.engine.event.EventQueue;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.RqClock;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.sched.Weights;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.stats.Recorder;

/**
 * update_curr() (kernel/sched/fair.c): the running task's time since it was last accounted goes to its CPU
 * time, its groups' cpu.stat usage, every level's vruntime and sum_exec_runtime (with EEVDF's update_deadline()),
 * and every limited level's runtime, all in the CPU's task clock ({@link RqClock}: without the interrupts' time
 * under IRQ_TIME_ACCOUNTING, and without steal). Owns rq->curr's exec_start ({@code Cpu.execClock}).
 */
public final class UpdateCurr {
    private final SimClock clock;
    private final Timers timers;
    private final EventQueue queue;
    private final RqClock rqClock;
    private final Execution execution;
    private final Bandwidth bandwidth;
    private final Recorder recorder;
    private final Resched resched;
    private final long updateCurrNs;
    private final boolean eevdf; // EEVDF
    private final boolean protectResched; // PROTECT_SLICE_RESCHED

    public UpdateCurr(KernelConfig kernel, HardwareModel hw, SimClock clock, Timers timers, RqClock rqClock,
                      Execution execution, Bandwidth bandwidth, Recorder recorder,
                      Resched resched) {
        this.clock = clock;
        this.timers = timers;
        this.queue = timers.queue;
        this.rqClock = rqClock;
        this.execution = execution;
        this.bandwidth = bandwidth;
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
        long taskNow = rqClock.clockTask(cpu);
        long delta = taskNow - cpu.execClock;
        if (delta <= 0) {
            return;
        }
        cpu.execClock = taskNow;
        p.cpuNs += delta;
        for (TaskGroup g = p.group; g != null; g = g.parent) {
            g.usageNs += delta;
        }
        recorder.addUsage(p.group, now - delta, now);
        // update_curr() itself runs once per level of the hierarchy, and so do the bandwidth hooks.
        int levels = p.group.depth + 1;
        execution.chargeOverhead(cpu, updateCurrNs * levels + bandwidth.costNs(levels));
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
                bandwidth.accountCfsRqRuntime(q, delta);
            }
        }
        if (p.clockRun) {
            armClockRead(cpu);
        }
    }

    /** set_next_entity(): se->exec_start = rq_clock_task(), the time from which update_curr() accounts curr. */
    public void setExecStart(Cpu cpu) {
        cpu.execClock = rqClock.clockTask(cpu);
    }

    /**
     * A thread-clock run reads its CPU clock about once a microsecond, each read a system call whose
     * task_sched_runtime() (kernel/sched/core.c) runs update_curr(): its group's quota runs out, and its slice
     * ends, to the microsecond instead of at the next tick. Between two reads only the clock moves, so one
     * update_curr() is armed, for the first read at which one of those comes due: a limited level's runtime gone, or
     * (EEVDF) a level's deadline or protected slice reached while others wait there. A condition already acted on —
     * a throttled level, a protected slice over and the reschedule asked — arms nothing. Cancelled when curr is no
     * thread-clock run.
     */
    public void armClockRead(Cpu cpu) {
        Task p = cpu.curr;
        int slot = timers.clockRead(cpu.id);
        if (p == null || !p.clockRun) {
            queue.cancel(slot);
            return;
        }
        long unaccounted = rqClock.clockTask(cpu) - cpu.execClock;
        long due = Long.MAX_VALUE;
        for (Entity se = p.se; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (q.runtimeEnabled && bandwidth.used() && !q.throttled) {
                due = Math.min(due, q.runtimeRemaining - unaccounted);
            }
            if (eevdf && q.nr > 1) { // EEVDF
                due = Math.min(due, execUntil(se, se.deadline) - unaccounted);
                if (protectResched && se.vprot > se.vruntime) { // PROTECT_SLICE_RESCHED
                    due = Math.min(due, execUntil(se, se.vprot) - unaccounted);
                }
            }
        }
        if (due == Long.MAX_VALUE) {
            queue.cancel(slot);
            return;
        }
        // (in task-clock time: what will be taken out of the task clock meanwhile comes on top)
        queue.arm(slot, clock.now + Math.max(0, due) + cpu.nonTaskPending, Timers.PRIO_RUN_END);
    }

    /** The clock read armClockRead() armed: update_curr(), which arms the next (none once the run left the CPU). */
    public void clockRead(Cpu cpu) {
        if (cpu.curr == null || !cpu.curr.clockRun) {
            return;
        }
        updateCurr(cpu);
        armClockRead(cpu);
    }

    /** The task-clock time until se's vruntime reaches v: calc_delta_fair() inverted, rounded up. */
    private static long execUntil(Entity se, long v) {
        long dv = v - se.vruntime;
        if (dv <= 0) {
            return 0;
        }
        return se.weight == Weights.NICE_0_LOAD ? dv
                : (dv * se.weight + Weights.NICE_0_LOAD - 1) / Weights.NICE_0_LOAD;
    }
}
