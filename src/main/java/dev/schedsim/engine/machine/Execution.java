package dev.schedsim.engine.machine;

import dev.schedsim.engine.event.EventQueue;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RqClock;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * (model) How the running task's work progresses on its CPU: at the CPU's rate (SMT shares a core, {@link Smt}),
 * except while the CPU does scheduler work or the task stalls (cache refill, the kernel side of a sleep), which is
 * CPU time of the task that does none of its own work. A run on the thread's own CPU clock
 * ({@code RunClock.THREAD_CPU}) ends instead when the task has been charged its length, whatever of it was work.
 * Owns each CPU's work clock, rate use and overhead debt, and arms the timer at which the current run segment
 * ends.
 */
public final class Execution {
    private final SimClock clock;
    private final Timers timers;
    private final EventQueue queue;
    private final RqClock rqClock;
    private final boolean irqTime; // IRQ_TIME_ACCOUNTING

    public Execution(KernelConfig kernel, SimClock clock, Timers timers, RqClock rqClock) {
        this.clock = clock;
        this.timers = timers;
        this.queue = timers.queue;
        this.rqClock = rqClock;
        this.irqTime = kernel.on(Feature.IRQ_TIME_ACCOUNTING);
    }

    /** A task was switched in: its work is settled from now (the model's work clock, beside exec_start). */
    public void startWork(Cpu cpu) {
        cpu.workSince = clock.now;
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

    /**
     * An interrupt takes {@code ns} from the running task: its work waits meanwhile, and the time is its CPU time
     * (and its group's quota) unless IRQ_TIME_ACCOUNTING takes it out of the task clock (irqtime_account_irq(),
     * update_rq_clock_task()).
     */
    public void interrupt(Cpu cpu, long ns) {
        stall(cpu, ns);
        if (irqTime) { // IRQ_TIME_ACCOUNTING
            rqClock.addNonTask(cpu, ns);
        }
    }

    /**
     * A run segment starts on {@code cpu}: usec_spin() reads the wall clock when it starts, so a spin's end is
     * fixed the first time the task runs it; a run on the thread's CPU clock reads that clock then, after the way
     * back from its sleep ({@code afterSwitch}: the debt the switch left, charged before the program reads it).
     */
    public void startRun(Cpu cpu, Task p, boolean afterSwitch) {
        if (p.spinNs > 0 && p.spinUntil < 0) {
            p.spinUntil = clock.now + cpu.overheadDebt + p.spinNs;
        }
        if (p.clockRun && p.clockRunUntil < 0) {
            p.clockRunUntil = taskCpuNow(cpu, p) + (afterSwitch ? cpu.overheadDebt : 0) + p.clockRunNs;
        }
    }

    /** The CPU time of {@code p}, curr of {@code cpu}, now: what update_curr() charged it and the task clock since. */
    public long taskCpuNow(Cpu cpu, Task p) {
        return p.cpuNs + rqClock.clockTask(cpu) - cpu.execClock;
    }

    /** The running segment is over: its work is done, (a spin) its wall time is up, or (a clock run) its CPU time. */
    public boolean segmentOver(Cpu cpu, Task p) {
        if (p.spinNs > 0) {
            return clock.now >= p.spinUntil;
        }
        if (p.clockRun) {
            return taskCpuNow(cpu, p) >= p.clockRunUntil;
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
        if (p.clockRun) {
            // the task clock runs at the wall clock's pace but for what is taken out of it (steal; interrupts with
            // IRQ_TIME_ACCOUNTING), whatever the CPU's rate and the debt: overhead in its context is its CPU time
            long left = Math.max(0, p.clockRunUntil - taskCpuNow(cpu, p));
            queue.arm(slot, now + left + cpu.nonTaskPending, Timers.PRIO_RUN_END);
            return;
        }
        long rem = Math.max(0, p.remainingWork);
        int rate = cpu.rate;
        // (at full speed the rounded-up division is rem itself: skip the integer division, the common case)
        long dt = (rate == 1024 ? rem : ((rem << 10) + rate - 1) / rate) + cpu.overheadDebt;
        queue.arm(slot, now + dt, Timers.PRIO_RUN_END);
    }

    /** The report starts now (after warm-up runs): the CPU's overhead time counts from here. */
    public void startReport(Cpu cpu) {
        cpu.overheadNs = 0;
    }
}
