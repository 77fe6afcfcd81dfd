package dev.schedsim.engine.bandwidth;

import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * {@code cfs_bandwidth_used()} (the static key that is on once any group has a quota) and the cost of one pass
 * through the bandwidth hooks (account_cfs_rq_runtime, check_cfs_rq_runtime, check_enqueue_throttle,
 * return_cfs_rq_runtime): nothing when BANDWIDTH_STATIC_KEY patches them out because no group has a quota (seed
 * 001 patch 1), else the hardware model's {@code bandwidthHookNs} per level of the hierarchy.
 */
public final class BandwidthHooks {
    private final boolean staticKey; // BANDWIDTH_STATIC_KEY
    private final long hookNs;
    private final Execution execution;
    private boolean used;

    public BandwidthHooks(KernelConfig kernel, HardwareModel hw, Execution execution) {
        this.staticKey = kernel.on(Feature.BANDWIDTH_STATIC_KEY);
        this.hookNs = hw.bandwidthHookNs();
        this.execution = execution;
    }

    /** cfs_bandwidth_used(). */
    public boolean used() {
        return used;
    }

    /** cfs_bandwidth_usage_inc(): a group got a quota. */
    void usageInc() {
        used = true;
    }

    /** The cost of the hooks on {@code levels} levels of the hierarchy, ns. */
    public long costNs(int levels) {
        return staticKey && !used ? 0 : hookNs * levels; // BANDWIDTH_STATIC_KEY
    }

    /** Charges the hooks on {@code levels} levels to the CPU. */
    public void charge(Cpu cpu, int levels) {
        execution.chargeOverhead(cpu, costNs(levels));
    }
}
