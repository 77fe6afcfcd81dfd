package dev.schedsim.engine.sched;

import dev.schedsim.engine.event.SimClock;

/**
 * update_rq_clock() and update_rq_clock_task() (kernel/sched/core.c): a CPU's task clock, rq->clock_task, is its
 * wall clock without the time that was not its tasks' — the interrupts' time when CONFIG_IRQ_TIME_ACCOUNTING is
 * built (irq_time_read() − rq->prev_irq_time), and the time its host ran something else in the vCPU's place with
 * PARAVIRT_TIME_ACCOUNTING (paravirt_steal_clock() − rq->prev_steal_time_rq). update_curr() charges tasks in this
 * clock: their CPU time, vruntime and their groups' quota. As in the kernel, the time taken out at one update is at
 * most the wall time since the last (the rest waits for the next), so the clock never goes back.
 *
 * <p>Without either (no interrupt time recorded, no steal) the task clock is the wall clock. Owns each CPU's
 * non-task time, taken out of the clock so far and not yet: rq->clock_task is the wall clock less the first.
 */
public final class RqClock {
    private final SimClock clock;

    public RqClock(SimClock clock) {
        this.clock = clock;
    }

    /** update_rq_clock(): rq->clock_task of {@code cpu} now. */
    public long clockTask(Cpu cpu) {
        long now = clock.now;
        if (cpu.nonTaskPending == 0) {
            // (the common case, and the only one without IRQ_TIME_ACCOUNTING and steal: nothing to take out)
            return now - cpu.nonTaskTaken;
        }
        // update_rq_clock_task(): "if (irq_delta > delta) irq_delta = delta" (and the same for steal)
        long taken = Math.min(cpu.nonTaskPending, Math.max(0, now - cpu.clockWall));
        cpu.nonTaskPending -= taken;
        cpu.nonTaskTaken += taken;
        cpu.clockWall = now;
        return now - cpu.nonTaskTaken;
    }

    /**
     * {@code ns} from now on {@code cpu} are not its tasks' time: an interrupt's (irqtime_account_irq()) or the
     * host's (steal).
     */
    public void addNonTask(Cpu cpu, long ns) {
        if (cpu.nonTaskPending == 0) {
            cpu.clockWall = clock.now; // (what is pending is taken out from now on)
        } else {
            clockTask(cpu);
        }
        cpu.nonTaskPending += ns;
    }
}
