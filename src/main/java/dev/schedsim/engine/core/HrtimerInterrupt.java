package dev.schedsim.engine.core;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;

/**
 * hrtimer_interrupt() on a CPU that is running a task (kernel/time/hrtimer.c): each sleep timer it expires runs
 * hrtimer_wakeup() and so try_to_wake_up() in hardirq context, on the interrupted task's time — the kernel charges
 * interrupts to whatever runs when IRQ_TIME_ACCOUNTING is off — and the woken task becomes runnable only at the
 * interrupt's end, so that a wakeup preemption comes after it. {@link dev.schedsim.engine.spec.HardwareModel}'s
 * {@code hrtimerIrqNs} per expired timer; an idle CPU's expiry costs no task (its exit latency is the idle state's).
 * Owns the end of each CPU's interrupt in progress.
 */
final class HrtimerInterrupt {
    private final SimClock clock;
    private final Timers timers;
    private final HrtimerBases hrtimers;
    private final Execution execution;
    private final Cpu[] cpus;
    private final long irqNs;
    /** Per CPU: when the hrtimer interrupt in progress ends (several timers may expire in one). */
    private final long[] irqEnd;

    HrtimerInterrupt(SimClock clock, Timers timers, HrtimerBases hrtimers, Execution execution, Cpu[] cpus,
                     long irqNs) {
        this.clock = clock;
        this.timers = timers;
        this.hrtimers = hrtimers;
        this.execution = execution;
        this.cpus = cpus;
        this.irqNs = irqNs;
        this.irqEnd = new long[cpus.length];
    }

    /**
     * __run_hrtimer() of p's sleep timer on {@code cpu}: true when the wakeup is to be done now (an idle CPU, or no
     * cost modelled); otherwise the running task is charged the expiry and p's wakeup is armed for the interrupt's
     * end (its task timer fires again with {@link Task#irqWake} set).
     */
    boolean expireNow(Task p, int cpu) {
        if (irqNs == 0 || cpus[cpu].curr == null) {
            return true;
        }
        hrtimers.cancel(p);
        long end = Math.max(clock.now, irqEnd[cpu]) + irqNs;
        irqEnd[cpu] = end;
        execution.interrupt(cpus[cpu], irqNs);
        p.irqWake = true;
        timers.queue.arm(timers.task(p.id), end, Timers.PRIO_TASK);
        return false;
    }
}
