package dev.schedsim.engine.topology;

/**
 * One scheduling-domain level, as {@code build_sched_domains()} / {@code sd_init()} (kernel/sched/topology.c)
 * make it: every CPU's domain at this level is one of {@code spans}; its groups are the child level's spans
 * inside it.
 *
 * <p>Per-level defaults follow {@code sd_init()}: min_interval = weight ms, max_interval = 2·weight ms,
 * busy_factor 16, imbalance_pct 117 (110 for SMT), cache_nice_tries 1 (0 for SMT, 2 for NUMA), SD_SERIALIZE
 * on NUMA levels.
 *
 * @param name      SMT, MC, PKG or NUMA (NUMA levels are numbered NUMA1, NUMA2 … outward)
 * @param spans     the distinct spans of this level, each an ascending CPU list
 * @param spanOf    for each CPU, the index of its span in {@code spans}
 */
public record DomainLevel(String name, int[][] spans, int[] spanOf, int imbalancePct, int busyFactor,
                          int cacheNiceTries, boolean serialize, boolean shareCapacity, boolean shareLlc,
                          boolean wakeAffine) {

    public int[] spanOfCpu(int cpu) {
        return spans[spanOf[cpu]];
    }

    /** sd->span_weight of a CPU's domain at this level. */
    public int weight(int cpu) {
        return spans[spanOf[cpu]].length;
    }

    /** min_interval in ms (= span weight). */
    public int minIntervalMs(int cpu) {
        return weight(cpu);
    }

    /** max_interval in ms (= 2 · span weight). */
    public int maxIntervalMs(int cpu) {
        return 2 * weight(cpu);
    }
}
