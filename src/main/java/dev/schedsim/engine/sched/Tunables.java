package dev.schedsim.engine.sched;

import dev.schedsim.engine.spec.KernelConfig;

/**
 * The fair class's tunables of one run, scaled by CPU count as {@code update_sysctl()} does: EEVDF's
 * {@code sysctl_sched_base_slice} and, for CFS (before 6.6), {@code sysctl_sched_latency},
 * {@code sysctl_sched_min_granularity} and {@code sysctl_sched_wakeup_granularity}; and the tick length.
 */
public record Tunables(long baseSliceNs, long latencyNs, long minGranularityNs, long wakeupGranularityNs,
                       long tickNs) {
    /** sysctl_sched_migration_cost: 0.5 ms (task_hot(), the newidle gate, SIS_CACHE's short sleeps). */
    public static final long MIGRATION_COST_NS = 500_000;

    public static Tunables of(KernelConfig kernel, int cpus) {
        int factor = Weights.getUpdateSysctlFactor(cpus);
        return new Tunables(kernel.baseSliceNs() * factor, Weights.SCHED_LATENCY_NS * factor,
                Weights.SCHED_MIN_GRANULARITY_NS * factor, Weights.SCHED_WAKEUP_GRANULARITY_NS * factor,
                kernel.tickNs());
    }
}
