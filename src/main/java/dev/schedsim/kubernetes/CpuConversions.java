package dev.schedsim.kubernetes;

/**
 * The kubelet's and the container runtimes' CPU arithmetic, each method named after the function it mirrors:
 * a CPU limit in millicores to a CFS quota, a CPU request to cgroup v1 shares, and shares to cgroup v2
 * {@code cpu.weight} (the kubelet's linear map for pod and QoS cgroups; the runtime's for container cgroups,
 * linear before runc 1.3.2 / crun 1.23 and a quadratic in log2(shares) since).
 */
public final class CpuConversions {
    /** kubernetes pkg/kubelet/cm/helpers_linux.go: MinShares = 2, MaxShares = 262144 (kernel/sched/sched.h). */
    public static final long MIN_SHARES = 2;
    public static final long MAX_SHARES = 262_144;
    /** helpers_linux.go: SharesPerCPU = 1024, MilliCPUToCPU = 1000. */
    static final long SHARES_PER_CPU = 1024;
    static final long MILLI_CPU_TO_CPU = 1000;
    /** helpers_linux.go: QuotaPeriod = 100000 µs (100 ms). */
    public static final long QUOTA_PERIOD_US = 100_000;
    /** helpers_linux.go: MinQuotaPeriod = 1000 µs, the kernel's min_cfs_quota_period. */
    public static final long MIN_QUOTA_PERIOD_US = 1_000;

    private CpuConversions() {
    }

    /**
     * kubernetes pkg/kubelet/cm/helpers_linux.go MilliCPUToQuota(milliCPU, period) (and its twin milliCPUToQuota
     * in pkg/kubelet/kuberuntime/helpers_linux.go): 0 (no limit) for 0 millicores, else milliCPU × period / 1000
     * in integer arithmetic, at least MinQuotaPeriod. The period is the kubelet's cpuCFSQuotaPeriod when the
     * CPUCFSQuotaPeriod feature gate is on, else QuotaPeriod; here the caller passes the one in force.
     */
    public static long milliCpuToQuota(long milliCpu, long periodUs) {
        if (milliCpu == 0) {
            return 0;
        }
        long quota = Math.multiplyHigh(milliCpu, periodUs) != 0 ? Long.MAX_VALUE : milliCpu * periodUs
                / MILLI_CPU_TO_CPU;
        return Math.max(quota, MIN_QUOTA_PERIOD_US);
    }

    /**
     * kubernetes pkg/kubelet/cm/helpers_linux.go MilliCPUToShares: MinShares for 0 millicores ("to really match
     * kernel default for zero milliCPU"), else milliCPU × 1024 / 1000 in integer arithmetic, within
     * [MinShares, MaxShares].
     */
    public static long milliCpuToShares(long milliCpu) {
        if (milliCpu == 0) {
            return MIN_SHARES;
        }
        long shares = milliCpu > Long.MAX_VALUE / SHARES_PER_CPU ? MAX_SHARES
                : milliCpu * SHARES_PER_CPU / MILLI_CPU_TO_CPU;
        return Math.min(MAX_SHARES, Math.max(MIN_SHARES, shares));
    }

    /**
     * The kubelet's cgroup v2 weight of a pod or QoS cgroup: kubernetes pkg/kubelet/cm/cgroup_manager_linux.go
     * (cgroup_v2_manager_linux.go in newer trees) cpuSharesToCPUWeight, KEP-2254's
     * {@code ((shares - 2) × 9999 / 262142) + 1} in integer arithmetic.
     */
    public static long cpuSharesToCpuWeight(long shares) {
        return ((shares - 2) * 9999) / 262_142 + 1;
    }

    /**
     * The container runtime that writes a container's cpu.weight from the OCI spec's cpu.shares the kubelet
     * gives it (CRI LinuxContainerResources.CpuShares).
     */
    public enum Runtime {
        /**
         * runc before 1.3.2 and crun before 1.23: opencontainers/runc libcontainer/cgroups/utils.go
         * ConvertCPUSharesToCgroupV2Value as of 2020 (runc commit "cgroup2: fix conversion"): 0 stays 0 (unset),
         * else {@code 1 + ((shares - 2) × 9999) / 262142}; crun's CONVERT_SHARES_TO_CGROUPS_V2 the same.
         */
        LINEAR,
        /**
         * runc 1.3.2 and later (opencontainers/cgroups utils.go ConvertCPUSharesToCgroupV2Value, commit fd95216
         * "ConvertCPUSharesToCgroupV2Value: improve", June 2025) and crun 1.23 and later
         * (src/libcrun/cgroup-internal.h convert_shares_to_weight, commit 4998c92 "cgroup: improve conversion
         * from shares to weight"): shares ≤ 2 give 1, ≥ 262144 give 10000, else
         * ceil(10^((l² + 125 l) / 612 - 7/34)) with l = log2(shares), a quadratic that maps the minimum, the
         * default (1024 → 100) and the maximum onto cgroup v2's.
         */
        QUADRATIC
    }

    /** The runtime's ConvertCPUSharesToCgroupV2Value (see {@link Runtime}). */
    public static long convertCpuSharesToCgroupV2Value(long shares, Runtime runtime) {
        if (shares == 0) {
            return 0; // "The value of 0 means unset."
        }
        if (runtime == Runtime.LINEAR) {
            return 1 + ((shares - 2) * 9999) / 262_142;
        }
        if (shares <= 2) {
            return 1;
        }
        if (shares >= 262_144) {
            return 10_000;
        }
        double l = log2(shares);
        // The same operations in the same order as the Go and C sources, so that the doubles are the same.
        double exponent = (l * l + 125 * l) / 612.0 - 7.0 / 34.0;
        return (long) Math.ceil(Math.pow(10, exponent));
    }

    /**
     * Go's math.Log2: exact for powers of two (frexp's fraction 0.5), else log(frac) × (1/ln 2) + exp. Java's
     * Math.log(x) / Math.log(2) is 10.000000000000002 for 1024, which would make the default weight 101.
     */
    /** Go's Log2E = 1/Ln2, as the compiler rounds the constant. */
    private static final double LOG2_E = 1.4426950408889634;

    static double log2(long x) {
        double d = x;
        int exp = Math.getExponent(d) + 1; // frexp: d = frac × 2^exp with frac in [0.5, 1)
        double frac = d / Math.scalb(1.0, exp);
        if (frac == 0.5) {
            return exp - 1;
        }
        return StrictMath.log(frac) * LOG2_E + exp;
    }
}
