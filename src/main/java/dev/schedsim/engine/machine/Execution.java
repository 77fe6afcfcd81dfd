package dev.schedsim.engine.machine;

import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.core.Task;
import dev.schedsim.engine.event.EventQueue;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;

/**
 * (model) How the running task's work progresses on its CPU: at the CPU's rate (SMT shares a core, {@link Smt}),
 * except while the CPU does scheduler work or the task stalls (cache refill, the kernel side of a sleep), which is
 * CPU time of the task that does none of its own work. Owns each CPU's work clock, rate use and overhead debt, and
 * arms the timer at which the current run segment ends.
 */
public final class Execution {
    private final SimClock clock;
    private final Timers timers;
    private final EventQueue queue;

    public Execution(SimClock clock, Timers timers) {
        this.clock = clock;
        this.timers = timers;
        this.queue = timers.queue;
    }

    /** Settles the work curr did since the last settlement at the CPU's current rate. */
    public void updateWork(Cpu cpu) {
        Task p = cpu.curr;
        long now = clock.now;
        long elapsed = now - cpu.workSince;
        cpu.workSince = now;
        if (p == null || elapsed <= 0) {
            return;
        }
        long absorbed = Math.min(elapsed, cpu.overheadDebt);
        cpu.overheadDebt -= absorbed;
        elapsed -= absorbed;
        long done = (elapsed * cpu.rate) >> 10;
        p.workDoneNs += done;
        if (!p.infinite) {
            p.remainingWork -= done;
        }
    }

    /**
     * Scheduler work done on a CPU: it is CPU time of whatever runs there (the kernel charges it to the current
     * task) but the task's own work makes no progress meanwhile.
     */
    public void chargeOverhead(Cpu cpu, long ns) {
        if (ns <= 0) {
            return;
        }
        cpu.overheadNs += ns;
        if (cpu.curr != null) {
            // Settle the work done so far first: the overhead delays what comes after now.
            updateWork(cpu);
            cpu.overheadDebt += ns;
        }
    }

    /** The running task stalls for {@code ns} of its own time (not scheduler overhead): a refill, a syscall. */
    public void stall(Cpu cpu, long ns) {
        updateWork(cpu);
        cpu.overheadDebt += ns;
    }

    /** usec_spin() reads the clock when it starts: a spin's end is fixed the first time the task runs it. */
    public void startSpin(Cpu cpu, Task p) {
        if (p.spinNs > 0 && p.spinUntil < 0) {
            p.spinUntil = clock.now + cpu.overheadDebt + p.spinNs;
        }
    }

    /** The running segment is over: its work is done, or (a spin) its wall time is up. */
    public static boolean segmentOver(Task p, long now) {
        if (p.spinNs > 0) {
            return now >= p.spinUntil;
        }
        return p.remainingWork <= 0 || p.infinite;
    }

    /** Arms the end of curr's run segment: its remaining work at the CPU's rate after the overhead debt. */
    public void armRunEnd(Cpu cpu) {
        Task p = cpu.curr;
        int slot = timers.runEnd(cpu.id);
        long now = clock.now;
        if (p.spinNs > 0) {
            queue.arm(slot, Math.max(now + cpu.overheadDebt, p.spinUntil), Timers.PRIO_RUN_END);
            return;
        }
        if (p.infinite) {
            queue.cancel(slot);
            return;
        }
        long rem = Math.max(0, p.remainingWork);
        int rate = cpu.rate;
        // (at full speed the rounded-up division is rem itself: skip the integer division, the common case)
        long dt = (rate == 1024 ? rem : ((rem << 10) + rate - 1) / rate) + cpu.overheadDebt;
        queue.arm(slot, now + dt, Timers.PRIO_RUN_END);
    }
}
