package dev.schedsim.engine.spec;

import java.util.List;

/**
 * One scheduling-domain level of a machine as the API shows it ({@code build_sched_domains()} of
 * kernel/sched/topology.c builds these levels; {@code Engine.schedDomains} lists them).
 *
 * @param name           SMT, MC, PKG or NUMA1, NUMA2 …
 * @param domains        how many domains the level has
 * @param cpusPerDomain  the span weight of the first one
 * @param imbalancePct   sd->imbalance_pct
 * @param busyFactor     sd->busy_factor
 * @param cacheNiceTries sd->cache_nice_tries
 * @param serialize      SD_SERIALIZE
 * @param flags          the SD_* flags the model gives the level
 */
public record SchedDomainView(String name, int domains, int cpusPerDomain, int imbalancePct, int busyFactor,
                              int cacheNiceTries, boolean serialize, List<String> flags) {
    public SchedDomainView {
        flags = List.copyOf(flags);
    }
}
