package dev.schedsim.engine.spec;

/**
 * One cgroup v2 directory with its CPU controller files.
 *
 * @param path    absolute path, "/" for the root
 * @param quotaUs cpu.max quota in µs, or -1 for "max" (no limit)
 * @param periodUs cpu.max period in µs (default 100000)
 * @param burstUs cpu.max.burst in µs
 * @param weight  cpu.weight 1..10000 (default 100)
 */
public record CgroupSpec(String path, long quotaUs, long periodUs, long burstUs, int weight) {
    /** min_cfs_quota_period / min_bw_quota_period_us. */
    public static final long MIN_QUOTA_PERIOD_US = 1_000;
    /** max_cfs_quota_period / max_bw_quota_period_us. */
    public static final long MAX_PERIOD_US = 1_000_000;
    /** default_bw_period_us(). */
    public static final long DEFAULT_PERIOD_US = 100_000;
    /** MAX_BW in µs: (1ULL << (64 - BW_SHIFT)) - 1 ns expressed in µs ("more than 203 days"). */
    public static final long MAX_BW_US = ((1L << 44) - 1) / 1000;

    public CgroupSpec {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("cgroup path must start with /");
        }
        if (weight < 1 || weight > 10_000) {
            throw new IllegalArgumentException("cpu.weight must be in 1..10000");
        }
        // tg_set_cfs_bandwidth() checks, in order.
        if (quotaUs != -1) {
            if ("/".equals(path)) {
                throw new IllegalArgumentException("the root cgroup cannot have a limit");
            }
            if (quotaUs < MIN_QUOTA_PERIOD_US) {
                throw new IllegalArgumentException("quota must be >= 1000 us");
            }
            if (quotaUs > MAX_BW_US) {
                throw new IllegalArgumentException("quota too large");
            }
        }
        if (periodUs < MIN_QUOTA_PERIOD_US || periodUs > MAX_PERIOD_US) {
            throw new IllegalArgumentException("period must be in 1000..1000000 us");
        }
        if (burstUs < 0 || (quotaUs != -1 && burstUs > quotaUs)) {
            throw new IllegalArgumentException("burst must be in 0..quota");
        }
    }

    public boolean limited() {
        return quotaUs != -1;
    }

    public static CgroupSpec unlimited(String path, int weight) {
        return new CgroupSpec(path, -1, DEFAULT_PERIOD_US, 0, weight);
    }

    /** The parent's path ("/" for top-level groups, null for the root). */
    public String parentPath() {
        if ("/".equals(path)) {
            return null;
        }
        int i = path.lastIndexOf('/');
        return i == 0 ? "/" : path.substring(0, i);
    }
}
