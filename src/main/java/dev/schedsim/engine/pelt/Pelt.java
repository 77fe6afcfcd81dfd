package dev.schedsim.engine.pelt;

/**
 * Per-entity load tracking as kernel/sched/pelt.c does it: time in 1024 ns units,
 * periods of 1024 units, y^32 = 1/2, sums decayed with {@code decay_load()} and accumulated with
 * {@code accumulate_sum()} in its three segments, averages divided by {@code get_pelt_divider()}.
 * Integer arithmetic throughout, so results are identical on every machine.
 *
 * <p>One instance tracks one signal: {@code load} (a weight while runnable), {@code runnable} (a count of
 * runnable tasks, or 1/0) and {@code running}. The simulation keeps one per task (its util) and one per CPU (the root cfs_rq's
 * load, runnable and util sums) — see {@code fair.LoadTracking}.
 * <p><b>Limitations:</b> no frequency or capacity scaling (all CPUs run at capacity 1024); a CPU's signal
 * is tracked from its own runnable weight rather than summed from its entities; a task of the root group that
 * migrates takes its averages along ({@link #detach}, {@link #attach}), a task of another group does not (the
 * kernel propagates its move up through the group entities).
 */
public final class Pelt {
    public static final int LOAD_AVG_PERIOD = 32;
    public static final long LOAD_AVG_MAX = 47742;
    static final long PELT_MIN_DIVIDER = LOAD_AVG_MAX - 1024;
    static final int SCHED_CAPACITY_SHIFT = 10;
    /** runnable_avg_yN_inv[n] = y^n · 2^32 (sched-pelt.h), from StrictMath so it is exact everywhere. */
    static final long[] Y_INV = new long[LOAD_AVG_PERIOD];

    static {
        for (int n = 0; n < LOAD_AVG_PERIOD; n++) {
            Y_INV[n] = Math.min(0xffffffffL, (long) Math.floor(StrictMath.pow(0.5, n / 32.0) * 4294967296.0));
        }
    }

    long lastUpdate;
    long loadSum;
    long runnableSum;
    long utilSum;
    int periodContrib;

    /*
     * The averages are the sums over get_pelt_divider(), the kernel's ___update_load_avg(); computed when read
     * (a task's are read far less often than they are updated), which gives the same values: the sums and the
     * divider change only together.
     */
    public long loadAvg() {
        return loadSum / (PELT_MIN_DIVIDER + periodContrib);
    }

    public long runnableAvg() {
        return runnableSum / (PELT_MIN_DIVIDER + periodContrib);
    }

    public long utilAvg() {
        return utilSum / (PELT_MIN_DIVIDER + periodContrib);
    }

    /**
     * The cfs_rq side of remove_entity_load_avg() as update_cfs_rq_load_avg() applies it: an entity's averages
     * leave the sums (sub_positive() of avg · divider).
     */
    public void detach(long load, long runnable, long util) {
        long divider = PELT_MIN_DIVIDER + periodContrib;
        loadSum = Math.max(0, loadSum - load * divider);
        runnableSum = Math.max(0, runnableSum - runnable * divider);
        utilSum = Math.max(0, utilSum - util * divider);
    }

    /** The cfs_rq side of attach_entity_load_avg(): an entity's averages join the sums at this divider. */
    public void attach(long load, long runnable, long util) {
        long divider = PELT_MIN_DIVIDER + periodContrib;
        loadSum += load * divider;
        runnableSum += runnable * divider;
        utilSum += util * divider;
    }

    /** decay_load(): val · y^n. */
    public static long decayLoad(long val, long n) {
        if (n > LOAD_AVG_PERIOD * 63L) {
            return 0;
        }
        int local = (int) n;
        if (local >= LOAD_AVG_PERIOD) {
            val >>>= local / LOAD_AVG_PERIOD;
            local %= LOAD_AVG_PERIOD;
        }
        return multiplyHigh32(val, Y_INV[local]);
    }

    private static long multiplyHigh32(long val, long mul) {
        // mul_u64_u32_shr(val, mul, 32) for val < 2^63.
        long hi = (val >>> 32) * mul;
        long lo = ((val & 0xffffffffL) * mul) >>> 32;
        return hi + lo;
    }

    /** __accumulate_pelt_segments(). */
    private static long accumulateSegments(long periods, long d1, long d3) {
        long c1 = decayLoad(d1, periods);
        long c2 = LOAD_AVG_MAX - decayLoad(LOAD_AVG_MAX, periods) - 1024;
        return c1 + c2 + d3;
    }

    /**
     * ___update_load_sum() + ___update_load_avg(): advance to {@code now} with the signal as it was since
     * the last update. Returns false when less than a 1024 ns unit has passed (nothing changed).
     */
    public boolean update(long now, long load, long runnable, boolean running) {
        long delta = (now - lastUpdate) >> 10;
        if (delta <= 0) {
            return false;
        }
        lastUpdate += delta << 10;
        if (load == 0) {
            runnable = 0;
            running = false;
        }
        // accumulate_sum()
        long contrib = delta;
        delta += periodContrib;
        long periods = delta / 1024;
        if (periods > 0) {
            loadSum = decayLoad(loadSum, periods);
            runnableSum = decayLoad(runnableSum, periods);
            utilSum = decayLoad(utilSum, periods);
            delta %= 1024;
            if (load != 0) {
                contrib = accumulateSegments(periods, 1024 - periodContrib, delta);
            }
        }
        periodContrib = (int) delta;
        if (load != 0) {
            loadSum += load * contrib;
        }
        if (runnable != 0) {
            runnableSum += runnable * contrib << SCHED_CAPACITY_SHIFT;
        }
        if (running) {
            utilSum += contrib << SCHED_CAPACITY_SHIFT;
        }
        return true;
    }
}
