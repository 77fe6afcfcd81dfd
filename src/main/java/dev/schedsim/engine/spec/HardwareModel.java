package dev.schedsim.engine.spec;

/**
 * The modelled hardware costs of a machine (docs/model.md). Every field has a documented default
 * that is an <em>assumption</em> of the model, not a measurement of a particular machine; a topology may
 * override any of them.
 *
 * <p><b>SMT:</b> {@code smtThroughput[k-1]} is T(k), the work a core with k busy hardware threads delivers
 * relative to one thread alone; each busy thread progresses at T(k)/k.
 *
 * <p><b>Cache</b> (refill after migration or eviction; used from the placement issue on):
 * {@code cacheRefillNsPerKb[d]} is the refill cost of one KiB of footprint moved over distance d
 * (0 same core, 1 same LLC, 2 other LLC, 3 other NUMA node).
 *
 * <p><b>Idle states:</b> a CPU idle for longer than {@code deepIdleResidencyNs} sits in the deep state and
 * needs {@code deepIdleExitNs} to wake; otherwise {@code shallowIdleExitNs}.
 *
 * <p><b>Power</b> (per core): idle and busy watts, plus {@code smtThreadWatts} for each busy thread beyond
 * the first and {@code deepIdleWatts} for a core whose threads are all in the deep state.
 *
 * <p><b>Overheads</b> charged as CPU time where the kernel does the work. The balancing defaults (250 ns per
 * CPU examined, 2 µs per cfs_rq in update_blocked_averages) put a newidle balance of a 112-CPU MC level
 * near 30 µs and of a 224-CPU NUMA level near 55 µs, the order of seed 003's measured max_newidle_lb_cost
 * (MC 7/49/398 µs, NUMA 10/45/158 µs on ThunderX2). {@code wakeKernelNs} is the kernel
 * time a task spends around each sleep and wakeup beyond the context switch (system call entry and exit, the
 * wait queue, the wakeup path): CPU time of the task that does no work of its own. {@code hrtimerSleepNs} is what a
 * timed sleep (clock_nanosleep(), a usleep()) costs its own task beyond that: hrtimer_start_range_ns() programming
 * the clock-event device and its own way back (the expiry's interrupt is the time of whatever runs where it fires:
 * {@code hrtimerIrqNs}); on a virtual machine each is an exit to the host, so a timed sleep can cost many times a
 * wait-queue sleep (validation-2c: a pipe's sleep and wakeup about the 2 µs switch alone,
 * a timed sleep 3.5 µs more; 0 by default, where {@code wakeKernelNs} covers both). {@code hrtimerIrqNs} is the
 * time a sleep timer's expiry, and the try_to_wake_up() it runs in hardirq context, take from the task running on
 * that CPU, which the kernel charges with it when IRQ_TIME_ACCOUNTING is off (0 by default; 11.8 µs measured on the
 * second host of the validation guest, not measured on the one validation-2c is calibrated on).
 * {@code hrtimerReprogramNs} is the part of a timed sleep that only a sleep whose timer becomes its CPU's first to
 * expire pays: hrtimer_start_range_ns() calls hrtimer_reprogram() only then, and programming the clock-event device
 * is a TSC-deadline MSR write, on a virtual machine an exit to the host (3.6 µs on the validation guest's second
 * host, src/test/c/rearm.c); a sleep that arms behind another sleeper's timer or the tick programs nothing. 0 by
 * default, where {@code hrtimerSleepNs} covers it on every timed sleep. {@code ipiWakeNs}
 * and {@code ipiDeliveryNs}: a wakeup onto another, idle CPU is sent by IPI (WakeIpi); the target starts leaving
 * idle the second later, the woken task pays the first as CPU time (0 by default).
 *
 * <p>{@code busiestRqLock}: a load balance that detaches tasks pays for the busiest run queue's locked section
 * (rq_lock(busiest) .. detach_tasks() .. rq_unlock()): the lock's line and the examined and detached tasks' lines,
 * each a {@code lineTransferNs} by distance, and the wait behind the balancers that took the same queue first. Off
 * by default: on the 2-vCPU validation guest it moves nine figures of the real-kernel suites out of tolerance, the
 * periodic cases' migrations either way, at the default 60 ns a line as at the 262-280 ns measured between the
 * guest's vCPUs (src/test/c/pingpong.c; docs/model.md, "Seed 003's table").
 *
 * <p>{@code wakeClockSkipNs}: what a woken task is charged between its enqueue and its switch-in when its wakeup
 * asked for the CPU. wakeup_preempt() then calls rq_clock_skip_update() (the current task is queued — the idle task
 * always is, init_idle() — and need_resched is set), __schedule() skips its update_rq_clock() and set_next_entity()
 * starts the task's exec_start at the enqueue's clock, so the interval is the woken task's runtime; a task that
 * waits behind a running one and is switched in by its block or a tick starts at that __schedule()'s clock. A
 * timed sleep's cost ({@code hrtimerSleepNs}) is derived from a sleeper that preempts a busy thread, so it holds
 * the interval, and a woken task that did not ask for the CPU pays {@code hrtimerSleepNs} less it. Measured as that
 * sleeper's sched_wakeup-to-switch (scripts/measure-latency.py's busyWake {@code sleeperWakeupToSwitchUs}); 0 where
 * it was not measured (every timed wakeup pays {@code hrtimerSleepNs} whole). docs/latency-validation.md, "What a
 * woken task is charged before it runs".
 *
 * <p>{@code idleExitCpuShare}: the share of an idle state's exit latency that the task it wakes pays again as
 * CPU time (0 by default: the exit is hardware time before anything runs). On a virtual machine it is about 1: the
 * woken task is charged from its enqueue (wakeup_preempt()'s rq clock skip, as {@code wakeClockSkipNs}) while its
 * CPU, a vCPU the host has just brought back, leaves the idle loop; measured on validation-2c, and on the second
 * host as that charge itself (2026-12-07: a lone periodic thread's runtime exceeds its on-CPU time by its wakeups'
 * sched_wakeup-to-switch time, within 1 %).
 *
 * <p><b>Machine noise</b> ({@link MachineNoise}): interrupts, timer lateness and background threads, drawn from
 * the run's seed; {@link MachineNoise#NONE} switches it off.
 */
public record HardwareModel(
        double[] smtThroughput,
        long[] cacheRefillNsPerKb,
        long shallowIdleExitNs,
        long deepIdleExitNs,
        long deepIdleResidencyNs,
        double coreIdleWatts,
        double deepIdleWatts,
        double coreBusyWatts,
        double smtThreadWatts,
        long contextSwitchNs,
        long updateCurrNs,
        long bandwidthHookNs,
        long idleScanPerCpuNs,
        long balancePerCpuNs,
        long blockedAveragesPerCfsRqNs,
        long[] lineTransferNs,
        long wakeKernelNs,
        long hrtimerSleepNs,
        long hrtimerIrqNs,
        long hrtimerReprogramNs,
        long ipiWakeNs,
        long ipiDeliveryNs,
        long wakeClockSkipNs,
        double idleExitCpuShare,
        MachineNoise noise,
        boolean busiestRqLock) {

    /**
     * Default SMT throughput curves (assumptions, overridable). SMT4's T(4) = 2.0 is the vendor's upper figure for
     * low-IPC loads on its SMT4 cores ("up to 2x for 4 threads", Marvell on ThunderX3 at Hot Chips 2020); the
     * steps between, and SMT2's and SMT8's, have no source (docs/model.md, "Seed 003's scaling from 1 group to 256").
     */
    public static double[] defaultSmtCurve(int threadsPerCore) {
        switch (threadsPerCore) {
            case 1:
                return new double[] {1.0};
            case 2:
                return new double[] {1.0, 1.25};
            case 4:
                return new double[] {1.0, 1.5, 1.8, 2.0};
            case 8:
                return new double[] {1.0, 1.55, 1.95, 2.25, 2.45, 2.6, 2.7, 2.8};
            default:
                // Other SMT widths: a concave curve reaching 1 + 0.25 * log2(k) (SMT2 → 1.25).
                double[] t = new double[threadsPerCore];
                for (int k = 1; k <= threadsPerCore; k++) {
                    t[k - 1] = 1.0 + 0.25 * (Math.log(k) / Math.log(2));
                }
                return t;
        }
    }

    /** The documented defaults for a machine with this SMT width. */
    public static HardwareModel defaults(int threadsPerCore) {
        return new HardwareModel(
                defaultSmtCurve(threadsPerCore),
                new long[] {0, 20, 60, 120},
                1_000, 50_000, 1_000_000,
                1.5, 0.5, 8.0, 1.5,
                2_000, 50, 30, 15, 250, 2_000, defaultLineTransferNs(), 5_000, 0, 0, 0, 0, 0, 0, 0,
                MachineNoise.defaults(), false);
    }

    public HardwareModel {
        if (smtThroughput == null || smtThroughput.length == 0) {
            throw new IllegalArgumentException("smtThroughput must list T(1)..T(threadsPerCore)");
        }
        smtThroughput = smtThroughput.clone();
        if (smtThroughput[0] != 1.0) {
            throw new IllegalArgumentException("smtThroughput[0] must be 1.0");
        }
        for (int i = 1; i < smtThroughput.length; i++) {
            if (!(smtThroughput[i] > 0) || smtThroughput[i] > i + 1) {
                throw new IllegalArgumentException("smtThroughput[" + i + "] must be in (0, " + (i + 1) + "]");
            }
        }
        if (cacheRefillNsPerKb == null || cacheRefillNsPerKb.length != 4) {
            throw new IllegalArgumentException("cacheRefillNsPerKb needs 4 distances");
        }
        cacheRefillNsPerKb = cacheRefillNsPerKb.clone();
        if (lineTransferNs == null || lineTransferNs.length != 4) {
            throw new IllegalArgumentException("lineTransferNs needs 4 distances");
        }
        lineTransferNs = lineTransferNs.clone();
        if (wakeClockSkipNs < 0) {
            throw new IllegalArgumentException("wakeClockSkipNs must be >= 0");
        }
        if (!(idleExitCpuShare >= 0)) {
            throw new IllegalArgumentException("idleExitCpuShare must be >= 0");
        }
        if (noise == null) {
            noise = MachineNoise.NONE;
        }
    }

    @Override
    public double[] smtThroughput() {
        return smtThroughput.clone();
    }

    @Override
    public long[] cacheRefillNsPerKb() {
        return cacheRefillNsPerKb.clone();
    }

    @Override
    public long[] lineTransferNs() {
        return lineTransferNs.clone();
    }

    /**
     * A cache line's transfer from the CPU that last wrote it, by distance (same core, same LLC, another LLC of the
     * socket, another socket): what one compare-and-swap on a line another CPU holds costs. Assumed orders of
     * magnitude, not measured here: compare-and-exchange core-to-core latencies on large Intel servers are tens of
     * ns inside a die, more between dies and one to two hundred ns across sockets (where to check them: Chips and
     * Cheese, "Core to Core Latency Data on Large Systems", 2023-11-07); a topology may override them.
     */
    public static long[] defaultLineTransferNs() {
        return new long[] {15, 60, 110, 190};
    }

    /** The same model with another kernel time per sleep/wakeup. */
    public HardwareModel withWakeKernelNs(long ns) {
        return with(c -> c.wakeKernelNs = ns);
    }

    /** The same model with another extra kernel time of a timed sleep. */
    public HardwareModel withHrtimerSleepNs(long ns) {
        return with(c -> c.hrtimerSleepNs = ns);
    }

    /** The same model with another time a sleep timer's expiry takes from the task it interrupts. */
    public HardwareModel withHrtimerIrqNs(long ns) {
        return with(c -> c.hrtimerIrqNs = ns);
    }

    /** The same model with another cost of programming the clock-event device for a sleep's timer. */
    public HardwareModel withHrtimerReprogramNs(long ns) {
        return with(c -> c.hrtimerReprogramNs = ns);
    }

    /** The same model with another cost of a wakeup's IPI to an idle CPU: its CPU time, and its delivery. */
    public HardwareModel withWakeIpi(long wakeNs, long deliveryNs) {
        return with(c -> {
            c.ipiWakeNs = wakeNs;
            c.ipiDeliveryNs = deliveryNs;
        });
    }

    /** The same model with other idle-state exit latencies and deep-state residency. */
    public HardwareModel withIdleExit(long shallowNs, long deepNs, long deepResidencyNs) {
        return with(c -> {
            c.shallowIdleExitNs = shallowNs;
            c.deepIdleExitNs = deepNs;
            c.deepIdleResidencyNs = deepResidencyNs;
        });
    }

    /**
     * The same model where a woken task that did not ask for its CPU at its wakeup pays a timed sleep's cost less
     * this (the rq clock skip's part of it).
     */
    public HardwareModel withWakeClockSkipNs(long ns) {
        return with(c -> c.wakeClockSkipNs = ns);
    }

    /** The same model where a task woken out of an idle state pays this share of the exit again as CPU time. */
    public HardwareModel withIdleExitCpuShare(double share) {
        return with(c -> c.idleExitCpuShare = share);
    }

    /** The same model with another machine activity ({@link MachineNoise#NONE}: none). */
    public HardwareModel withNoise(MachineNoise n) {
        return with(c -> c.noise = n);
    }

    /**
     * The same model where a load balance pays for the busiest run queue's locked section: its lines by distance
     * and the wait behind other balancers of the same queue (the balance package's BusiestRqLock).
     */
    public HardwareModel withBusiestRqLock(boolean on) {
        return with(c -> c.busiestRqLock = on);
    }

    /** A copy of this model with some components changed. */
    private HardwareModel with(java.util.function.Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return c.build();
    }

    /** A model's components, to change one or a few of them (the withers above). */
    private static final class Copy {
        private final double[] smtThroughput;
        private final long[] cacheRefillNsPerKb;
        private long shallowIdleExitNs;
        private long deepIdleExitNs;
        private long deepIdleResidencyNs;
        private final double coreIdleWatts;
        private final double deepIdleWatts;
        private final double coreBusyWatts;
        private final double smtThreadWatts;
        private final long contextSwitchNs;
        private final long updateCurrNs;
        private final long bandwidthHookNs;
        private final long idleScanPerCpuNs;
        private final long balancePerCpuNs;
        private final long blockedAveragesPerCfsRqNs;
        private final long[] lineTransferNs;
        private long wakeKernelNs;
        private long hrtimerSleepNs;
        private long hrtimerIrqNs;
        private long hrtimerReprogramNs;
        private long ipiWakeNs;
        private long ipiDeliveryNs;
        private long wakeClockSkipNs;
        private double idleExitCpuShare;
        private MachineNoise noise;
        private boolean busiestRqLock;

        Copy(HardwareModel h) {
            smtThroughput = h.smtThroughput;
            cacheRefillNsPerKb = h.cacheRefillNsPerKb;
            shallowIdleExitNs = h.shallowIdleExitNs;
            deepIdleExitNs = h.deepIdleExitNs;
            deepIdleResidencyNs = h.deepIdleResidencyNs;
            coreIdleWatts = h.coreIdleWatts;
            deepIdleWatts = h.deepIdleWatts;
            coreBusyWatts = h.coreBusyWatts;
            smtThreadWatts = h.smtThreadWatts;
            contextSwitchNs = h.contextSwitchNs;
            updateCurrNs = h.updateCurrNs;
            bandwidthHookNs = h.bandwidthHookNs;
            idleScanPerCpuNs = h.idleScanPerCpuNs;
            balancePerCpuNs = h.balancePerCpuNs;
            blockedAveragesPerCfsRqNs = h.blockedAveragesPerCfsRqNs;
            lineTransferNs = h.lineTransferNs;
            wakeKernelNs = h.wakeKernelNs;
            hrtimerSleepNs = h.hrtimerSleepNs;
            hrtimerIrqNs = h.hrtimerIrqNs;
            hrtimerReprogramNs = h.hrtimerReprogramNs;
            ipiWakeNs = h.ipiWakeNs;
            ipiDeliveryNs = h.ipiDeliveryNs;
            wakeClockSkipNs = h.wakeClockSkipNs;
            idleExitCpuShare = h.idleExitCpuShare;
            noise = h.noise;
            busiestRqLock = h.busiestRqLock;
        }

        HardwareModel build() {
            return new HardwareModel(smtThroughput, cacheRefillNsPerKb, shallowIdleExitNs, deepIdleExitNs,
                    deepIdleResidencyNs, coreIdleWatts, deepIdleWatts, coreBusyWatts, smtThreadWatts, contextSwitchNs,
                    updateCurrNs, bandwidthHookNs, idleScanPerCpuNs, balancePerCpuNs, blockedAveragesPerCfsRqNs,
                    lineTransferNs, wakeKernelNs, hrtimerSleepNs, hrtimerIrqNs, hrtimerReprogramNs, ipiWakeNs,
                    ipiDeliveryNs, wakeClockSkipNs, idleExitCpuShare, noise, busiestRqLock);
        }
    }

    /** T(k) for k busy threads (k ≥ 1). */
    public double throughput(int k) {
        return smtThroughput[Math.min(k, smtThroughput.length) - 1];
    }
}
