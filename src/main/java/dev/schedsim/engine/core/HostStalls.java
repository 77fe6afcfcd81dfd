package dev.schedsim.engine.core;

import dev.schedsim.engine.event.EventQueue;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.machine.MachineActivity;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.RqClock;

/**
 * (model) A virtual machine's host preempting a busy vCPU ({@code MachineNoise.HostStall}): for the stall nothing
 * of the guest runs there. The running task's work waits, and it is not charged: the time is steal, which
 * PARAVIRT_TIME_ACCOUNTING takes out of the task clock (update_rq_clock_task(), {@link RqClock}). The vCPU's
 * timers — its tick, the sleep timers of its hrtimer base, its interrupts — fire at the end, and a schedule()
 * asked of it meanwhile (a wakeup's preemption from another CPU) runs then. Owns each CPU's stall in progress.
 */
final class HostStalls {
    private final SimClock clock;
    private final Timers timers;
    private final EventQueue queue;
    private final Execution execution;
    private final RqClock rqClock;
    private final HrtimerBases hrtimers;
    private final MachineActivity activity;
    private final Resched resched;

    HostStalls(SimClock clock, Timers timers, Execution execution, RqClock rqClock, HrtimerBases hrtimers,
               MachineActivity activity, Resched resched) {
        this.clock = clock;
        this.timers = timers;
        this.queue = timers.queue;
        this.execution = execution;
        this.rqClock = rqClock;
        this.hrtimers = hrtimers;
        this.activity = activity;
        this.resched = resched;
    }

    /** The CPU's host-stall slot fired: a stall begins, or the one in progress ends. */
    void fire(Cpu cpu) {
        long now = clock.now;
        if (cpu.stolenUntil != 0) {
            cpu.stolenUntil = 0;
            if (cpu.reschedAfterStall) {
                cpu.reschedAfterStall = false;
                resched.reschedCurr(cpu);
            }
            activity.armNextHostStall(cpu, now);
            return;
        }
        if (cpu.curr == null) {
            return;
        }
        long ns = activity.hostStallNs();
        long until = now + ns;
        execution.stall(cpu, ns);
        rqClock.addNonTask(cpu, ns);
        cpu.stolenUntil = until;
        defer(timers.tick(cpu.id), until, Timers.PRIO_TICK);
        defer(timers.irq(cpu.id), until, Timers.PRIO_IRQ);
        hrtimers.deferExpiries(cpu.id, until);
        queue.arm(timers.hostStall(cpu.id), until, Timers.PRIO_IRQ);
        // (its run end moves with the stalled work: re-armed when it comes due)
    }

    /** schedule() on {@code cpu} must wait: its vCPU is not running. */
    boolean stalled(Cpu cpu) {
        if (cpu.stolenUntil == 0) {
            return false;
        }
        cpu.reschedAfterStall = true;
        return true;
    }

    private void defer(int slot, long until, int priority) {
        if (queue.armed(slot) && queue.when(slot) < until) {
            queue.arm(slot, until, priority);
        }
    }
}
