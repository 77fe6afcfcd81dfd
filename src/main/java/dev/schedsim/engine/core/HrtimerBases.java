package dev.schedsim.engine.core;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.sched.Task;

/**
 * The sleep timers of each CPU's hrtimer base (kernel/time/hrtimer.c): a sleep with slack is armed with a soft
 * and a hard expiry (hrtimer_start_range_ns(); the interrupt is programmed for the hard one), on the CPU the task
 * slept on. Whenever an hrtimer interrupt runs on a CPU — the tick (tick_sched_timer()) or another sleeper's
 * timer — __hrtimer_run_queues() expires, in the order of their hard expiry, every timer whose soft expiry has
 * passed, stopping at the first that has not: a sleep then ends early, batched with that interrupt. On the
 * validation machine 6 % of the periodic threads' 3 ms sleeps ended before their 50 µs of slack
 * (docs/latency-validation.md, "four-2000 traced"), and batched wakeups meet on a CPU at once. Owns each task's
 * armed timer and the per-CPU lists.
 */
public final class HrtimerBases {
    private final SimClock clock;
    private final Timers timers;
    private final Task[][] base;
    private final int[] size;
    /** Per CPU: no armed timer's soft expiry is earlier (a bound: exact after each scan, lowered by arm()). */
    private final long[] minSoft;
    /** Whether a sleep's reprogram has a cost (HardwareModel.hrtimerReprogramNs > 0): else nobody asks. */
    private final boolean tracksFirst;

    public HrtimerBases(SimClock clock, Timers timers, int ncpu, boolean tracksFirst) {
        this.clock = clock;
        this.tracksFirst = tracksFirst;
        this.timers = timers;
        this.base = new Task[ncpu][4];
        this.size = new int[ncpu];
        this.minSoft = new long[ncpu];
        java.util.Arrays.fill(minSoft, Long.MAX_VALUE);
    }

    /** hrtimer_start_range_ns() of p's sleep on {@code cpu}; the interrupt comes {@code latenessNs} after the hard expiry. */
    void arm(Task p, int cpu, long latenessNs) {
        long now = clock.now;
        p.irqWake = false;
        p.timerHardNs = now + p.sleepNs;
        // (a sleep of 0 with slack is never expired by the interrupt that armed it)
        p.timerSoftNs = Math.max(now + 1, p.timerHardNs - p.sleepSlackNs);
        p.timerFirst = tracksFirst && becomesFirst(p.timerHardNs, cpu);
        timers.queue.arm(timers.task(p.id), p.timerHardNs + latenessNs, Timers.PRIO_TASK);
        if (p.sleepSlackNs > 0) {
            if (size[cpu] == base[cpu].length) {
                base[cpu] = java.util.Arrays.copyOf(base[cpu], 2 * size[cpu]);
            }
            p.timerIndex = size[cpu];
            base[cpu][size[cpu]++] = p;
            p.timerCpu = cpu;
            minSoft[cpu] = Math.min(minSoft[cpu], p.timerSoftNs);
        }
    }

    /**
     * hrtimer_start_range_ns()'s test before hrtimer_reprogram(): does a timer expiring at {@code hardNs} come
     * before every timer already armed on {@code cpu} — the tick (tick_sched_timer(), armed while the CPU is busy)
     * and the sleep timers of its base? Only then is the clock-event device programmed. (Sleep timers without
     * slack are not kept in the base and not compared: a real-time task's sleeps, rare beside the tick.)
     */
    private boolean becomesFirst(long hardNs, int cpu) {
        int tick = timers.tick(cpu);
        if (timers.queue.armed(tick) && timers.queue.when(tick) <= hardNs) {
            return false;
        }
        Task[] b = base[cpu];
        for (int i = 0, n = size[cpu]; i < n; i++) {
            if (b[i].timerHardNs <= hardNs) {
                return false;
            }
        }
        return true;
    }

    /** hrtimer_cancel() (the task woke or exits otherwise), or the timer's own expiry. */
    void cancel(Task p) {
        timers.queue.cancel(timers.task(p.id));
        int cpu = p.timerCpu;
        if (cpu < 0) {
            return;
        }
        Task[] b = base[cpu];
        int n = --size[cpu];
        Task last = b[n];
        b[p.timerIndex] = last;
        last.timerIndex = p.timerIndex;
        b[n] = null;
        p.timerCpu = -1;
    }

    /**
     * The vCPU of {@code cpu} does not run until {@code until} (HostStalls): the sleep timers of its base that would
     * fire before then fire then.
     */
    void deferExpiries(int cpu, long until) {
        Task[] b = base[cpu];
        for (int i = 0, n = size[cpu]; i < n; i++) {
            int slot = timers.task(b[i].id);
            if (timers.queue.armed(slot) && timers.queue.when(slot) < until) {
                timers.queue.arm(slot, until, Timers.PRIO_TASK);
            }
        }
    }

    /**
     * __hrtimer_run_queues() on {@code cpu} after one of its hrtimers fired: the next sleep timer whose soft expiry
     * has passed, earliest hard expiry first, or null when the first one left has not reached its soft expiry.
     * The caller expires it (cancel(), then the wakeup) and asks again.
     */
    Task nextExpired(int cpu) {
        if (clock.now < minSoft[cpu]) {
            return null; // (the common case, at a tick: no soft expiry has passed)
        }
        Task[] b = base[cpu];
        Task first = null;
        long soft = Long.MAX_VALUE;
        for (int i = 0, n = size[cpu]; i < n; i++) {
            Task t = b[i];
            soft = Math.min(soft, t.timerSoftNs);
            if (first == null || t.timerHardNs < first.timerHardNs) {
                first = t;
            }
        }
        minSoft[cpu] = soft;
        return first != null && first.timerSoftNs <= clock.now ? first : null;
    }
}
