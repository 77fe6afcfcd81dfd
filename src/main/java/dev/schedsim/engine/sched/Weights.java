package dev.schedsim.engine.sched;

/**
 * Weights, virtual time and the fair class's tunables (kernel/sched/core.c's {@code sched_prio_to_weight[]},
 * fair.c's {@code calc_delta_fair()} and {@code get_update_sysctl_factor()}). Weights are unscaled
 * ({@code scale_load_down}: NICE_0 = 1024); times in ns.
 */
public final class Weights {
    public static final long NICE_0_LOAD = 1024;
    /** MIN_SHARES (unscaled). */
    public static final long MIN_SHARES = 2;
    /** CFS sysctl_sched_latency before scaling (6 ms). */
    public static final long SCHED_LATENCY_NS = 6_000_000L;
    /** CFS sysctl_sched_min_granularity before scaling (0.75 ms). */
    public static final long SCHED_MIN_GRANULARITY_NS = 750_000L;
    /** CFS sysctl_sched_wakeup_granularity before scaling (1 ms). */
    public static final long SCHED_WAKEUP_GRANULARITY_NS = 1_000_000L;

    /** sched_prio_to_weight[40] (core.c), nice -20..19. */
    static final int[] PRIO_TO_WEIGHT = {
        88761, 71755, 56483, 46273, 36291,
        29154, 23254, 18705, 14949, 11916,
        9548, 7620, 6100, 4904, 3906,
        3121, 2501, 1991, 1586, 1277,
        1024, 820, 655, 526, 423,
        335, 272, 215, 172, 137,
        110, 87, 70, 56, 45,
        36, 29, 23, 18, 15,
    };

    private Weights() {
    }

    public static long niceToWeight(int nice) {
        return PRIO_TO_WEIGHT[nice + 20];
    }

    /** calc_delta_fair(): delta × NICE_0_LOAD / weight. */
    public static long calcDeltaFair(long delta, long weight) {
        return weight == NICE_0_LOAD ? delta : delta * NICE_0_LOAD / weight;
    }

    /** get_update_sysctl_factor() with SCHED_TUNABLESCALING_LOG: 1 + ilog2(min(ncpus, 8)). */
    public static int getUpdateSysctlFactor(int cpus) {
        int n = Math.min(cpus, 8);
        return 1 + (31 - Integer.numberOfLeadingZeros(n));
    }
}
