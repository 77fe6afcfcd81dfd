package dev.schedsim.engine.api;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A validated simulation: machine, kernel, cgroups and workloads, simulated for {@code durationUs}.
 * The compact constructor checks the cross-references (parents listed before children, workloads in known
 * cgroups, affinity inside the machine); the service reports request errors itself with field names before
 * it builds a spec, so these checks are a safety net.
 *
 * @param topology   the machine
 * @param kernel     the resolved kernel
 * @param cgroups    every cgroup including "/" first, parents before children
 * @param workloads  the workloads
 * @param durationUs simulated time
 * @param trace      record a bounded run trace (Chrome trace events)
 * @param startUs    when the workloads' threads start (cgroups are configured at 0), like a benchmark that
 *                   starts a little after its cgroup was written
 * @param stopUs     when every thread exits (0 = they run until they finish or the run ends), like a
 *                   benchmark that stops itself before its statistics are read
 * @param warmup     runs of the same spec on the same machine before the reported one ({@link Warmup})
 */
public record EngineSpec(TopologySpec topology, KernelConfig kernel, List<CgroupSpec> cgroups,
                         List<WorkloadSpec> workloads, long durationUs, boolean trace, long startUs, long stopUs,
                         Warmup warmup) {
    /** Workloads start at 0 and run to the end. */
    public EngineSpec(TopologySpec topology, KernelConfig kernel, List<CgroupSpec> cgroups,
                      List<WorkloadSpec> workloads, long durationUs, boolean trace) {
        this(topology, kernel, cgroups, workloads, durationUs, trace, 0, 0);
    }

    /** No warm-up: the reported run is the machine's first. */
    public EngineSpec(TopologySpec topology, KernelConfig kernel, List<CgroupSpec> cgroups,
                      List<WorkloadSpec> workloads, long durationUs, boolean trace, long startUs, long stopUs) {
        this(topology, kernel, cgroups, workloads, durationUs, trace, startUs, stopUs, Warmup.NONE);
    }

    /**
     * Runs of the same spec before the reported one, as a benchmark harness runs a case again and again on a
     * machine it does not reboot: each warm-up run is the spec's run (its cgroups made afresh at its start, its
     * threads new ones, started at startUs and exiting at stopUs or at the run's end), followed by {@code gapUs}
     * of the machine alone (its machine noise only). What the kernel keeps from one run to the next carries on —
     * the sched domains' balance state (sd_init() runs only when the domains are rebuilt: NI_RANDOM's newidle_ratio,
     * max_newidle_lb_cost, balance_interval), the run queues' avg_idle and averages, the machine's noise — and
     * nothing of the warm-up runs is reported: the report's time 0 is the reported run's start.
     *
     * @param runs  warm-up runs (0: none)
     * @param gapUs the machine alone after each warm-up run
     */
    public record Warmup(int runs, long gapUs) {
        public static final Warmup NONE = new Warmup(0, 0);

        public Warmup {
            if (runs < 0 || gapUs < 0) {
                throw new IllegalArgumentException("need warm-up runs >= 0 and gapUs >= 0");
            }
        }

        public boolean none() {
            return runs == 0;
        }
    }

    /** The same spec with warm-up runs before the reported one. */
    public EngineSpec withWarmup(Warmup w) {
        return new EngineSpec(topology, kernel, cgroups, workloads, durationUs, trace, startUs, stopUs, w);
    }

    /** The length of one warm-up run and its gap, µs: where each run starts after the one before. */
    public long warmupPeriodUs() {
        return durationUs + warmup.gapUs();
    }

    /** When the reported run starts on the simulation's clock, µs (0 without warm-up). */
    public long reportedStartUs() {
        return warmup.runs() * warmupPeriodUs();
    }

    public EngineSpec {
        if (startUs < 0 || stopUs < 0 || (stopUs > 0 && stopUs <= startUs)) {
            throw new IllegalArgumentException("need 0 <= startUs < stopUs (or stopUs = 0)");
        }
        if (warmup == null) {
            warmup = Warmup.NONE;
        }
        cgroups = List.copyOf(cgroups);
        workloads = List.copyOf(workloads);
        if (durationUs <= 0) {
            throw new IllegalArgumentException("durationUs must be > 0");
        }
        if (cgroups.isEmpty() || !"/".equals(cgroups.get(0).path())) {
            throw new IllegalArgumentException("the first cgroup must be the root /");
        }
        Set<String> seen = new HashSet<>();
        for (CgroupSpec c : cgroups) {
            String parent = c.parentPath();
            if (parent != null && !seen.contains(parent)) {
                throw new IllegalArgumentException("cgroup " + c.path() + " listed before its parent");
            }
            if (!seen.add(c.path())) {
                throw new IllegalArgumentException("duplicate cgroup " + c.path());
            }
        }
        int cpus = topology.cpuCount();
        Set<String> names = new HashSet<>();
        for (WorkloadSpec w : workloads) {
            if (!seen.contains(w.cgroup())) {
                throw new IllegalArgumentException("workload " + w.name() + " in unknown cgroup " + w.cgroup());
            }
            if (!names.add(w.name())) {
                throw new IllegalArgumentException("duplicate workload name " + w.name());
            }
            int[] aff = w.cpus();
            if (aff != null) {
                if (aff.length == 0) {
                    throw new IllegalArgumentException("empty affinity of " + w.name());
                }
                for (int c : aff) {
                    if (c < 0 || c >= cpus) {
                        throw new IllegalArgumentException("affinity of " + w.name() + " outside the machine");
                    }
                }
            }
            if (w.threadCount() < 1) {
                throw new IllegalArgumentException("workload " + w.name() + " has no threads");
            }
        }
    }

    /** Total threads over all workloads. */
    public long threadCount() {
        long n = 0;
        for (WorkloadSpec w : workloads) {
            n += w.threadCount();
        }
        return n;
    }

    /** cgroup path → spec. */
    public Map<String, CgroupSpec> cgroupsByPath() {
        Map<String, CgroupSpec> m = new HashMap<>();
        for (CgroupSpec c : cgroups) {
            m.put(c.path(), c);
        }
        return m;
    }
}
