package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfile;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Invariants that hold for any spec (CPU time conserved, cpu.stat consistent), checked on random small
 * specs from a seeded generator (property-based style, without a framework). Every case is a dynamic test
 * named by its seed; a failure message repeats the seed and the spec so the case can be replayed with
 * {@link #randomSpec(long)}.
 */
class ConservationTests {
    /** Overridable for longer local hunts: -Dconservation.seed=… -Dconservation.cases=…. */
    static final long BASE_SEED = Long.getLong("conservation.seed", 0x5EED_2024L);
    static final int CASES = Integer.getInteger("conservation.cases", 50);
    static final String[] SMALL_PRESETS = {"validation-2c", "desktop-8c-smt2", "xeon-2s-4c-smt2", "power10-8c-smt8"};
    static final int[] HZ = {100, 250, 300, 1000};

    @TestFactory
    Stream<DynamicTest> invariantsHoldOnRandomSpecs() {
        return IntStream.range(0, CASES).mapToObj(i -> {
            long seed = BASE_SEED + i;
            EngineSpec spec = randomSpec(seed);
            return DynamicTest.dynamicTest("seed " + seed + ": " + describe(spec), () -> check(seed, spec));
        });
    }

    // ------------------------------------------------------------------------------------------------
    // The generator

    static EngineSpec randomSpec(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        TopologySpec topo = Specs.preset(SMALL_PRESETS[rnd.nextInt(SMALL_PRESETS.length)]);
        int cpus = topo.cpuCount();
        List<KernelProfile> profiles = KernelProfiles.all();
        KernelProfile profile = profiles.get(rnd.nextInt(profiles.size()));
        Map<Feature, Boolean> overrides = new EnumMap<>(Feature.class);
        if (rnd.nextBoolean()) {
            overrides.put(Feature.BANDWIDTH_TIMER_INTERLEAVE, rnd.nextBoolean());
        }
        KernelConfig kernel = KernelConfig.of(profile, HZ[rnd.nextInt(HZ.length)], overrides, 5000);

        List<CgroupSpec> cgroups = new ArrayList<>();
        List<String> paths = new ArrayList<>(List.of("/"));
        int ncg = 1 + rnd.nextInt(4);
        for (int i = 0; i < ncg; i++) {
            String parent = paths.get(rnd.nextInt(paths.size()));
            String path = ("/".equals(parent) ? "" : parent) + "/g" + i;
            // cpu.weight in [1, 10000], log-uniform so that small and large weights both occur.
            int weight = (int) Math.max(1, Math.min(10_000, Math.round(Math.exp(rnd.nextDouble() * Math.log(10_000)))));
            if (rnd.nextInt(3) == 0) {
                cgroups.add(CgroupSpec.unlimited(path, weight));
            } else {
                // Kernel limits (tg_set_cfs_bandwidth): 1 ms ≤ period ≤ 1 s, quota ≥ 1 ms, 0 ≤ burst ≤ quota.
                long period = rnd.nextInt(4) == 0 ? 1_000 + rnd.nextLong(999_001) : 5_000 + rnd.nextLong(195_001);
                // Half the groups get less than one CPU's worth, so that throttling is common.
                double cpusWorth = rnd.nextBoolean() ? 0.02 + rnd.nextDouble() : 0.05 + rnd.nextDouble() * cpus * 1.2;
                long quota = Math.max(CgroupSpec.MIN_QUOTA_PERIOD_US, (long) (period * cpusWorth));
                long burst = rnd.nextBoolean() ? 0 : rnd.nextLong(quota + 1);
                cgroups.add(new CgroupSpec(path, quota, period, burst, weight));
            }
            paths.add(path);
        }

        List<WorkloadSpec> workloads = new ArrayList<>();
        int nw = 1 + rnd.nextInt(4);
        for (int i = 0; i < nw; i++) {
            String cg = paths.get(rnd.nextInt(paths.size()));
            int[] aff = null;
            if (rnd.nextInt(4) == 0) {
                List<Integer> set = new ArrayList<>();
                for (int c = 0; c < cpus; c++) {
                    if (rnd.nextInt(3) == 0) {
                        set.add(c);
                    }
                }
                if (set.isEmpty()) {
                    set.add(rnd.nextInt(cpus));
                }
                aff = set.stream().mapToInt(Integer::intValue).toArray();
            }
            String name = "w" + i;
            switch (rnd.nextInt(3)) {
                case 0:
                    long work = rnd.nextBoolean() ? 0 : 1_000 + rnd.nextLong(200_000);
                    workloads.add(TestWorkloads.cpuBound(name, cg, 1 + rnd.nextInt(6), rnd.nextInt(11) - 5, aff,
                            work));
                    break;
                case 1:
                    workloads.add(TestWorkloads.periodic(name, cg, 1 + rnd.nextInt(6), 100 + rnd.nextLong(4_900),
                            100 + rnd.nextLong(19_900), rnd.nextInt(31), aff));
                    break;
                default:
                    workloads.add(TestWorkloads.requestResponse(name, cg, 1 + rnd.nextInt(3), 5 + rnd.nextLong(296),
                            5 + rnd.nextLong(296), aff));
                    break;
            }
        }
        long durationUs = 100_000 + rnd.nextLong(400_001);
        return Specs.spec(topo, kernel, cgroups, workloads, durationUs);
    }

    static String describe(EngineSpec s) {
        StringBuilder b = new StringBuilder();
        b.append(s.topology().cpuCount()).append(" CPUs, ").append(s.kernel().profile()).append(" HZ ")
                .append(s.kernel().hz()).append(s.kernel().on(Feature.BANDWIDTH_TIMER_INTERLEAVE) ? " interleave" : "")
                .append(", ").append(s.durationUs()).append(" µs;");
        for (CgroupSpec c : s.cgroups().subList(1, s.cgroups().size())) {
            b.append(' ').append(c.path()).append("(w").append(c.weight());
            if (c.limited()) {
                b.append(' ').append(c.quotaUs()).append('/').append(c.periodUs()).append(" b").append(c.burstUs());
            }
            b.append(')');
        }
        b.append(';');
        for (WorkloadSpec w : s.workloads()) {
            b.append(' ').append(w.name()).append('=').append(w.type().wireName()).append('×').append(w.threadCount())
                    .append('@').append(w.cgroup());
            if (w.cpus() != null) {
                b.append(" cpus").append(java.util.Arrays.toString(w.cpus()));
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------------------------------------
    // The invariants

    static void check(long seed, EngineSpec spec) {
        Report r = Specs.run(spec, seed);
        List<String> broken = new ArrayList<>();
        assertEquals(spec.cgroups().size(), r.cgroups().size());
        assertEquals(spec.workloads().size(), r.workloads().size());
        assertEquals(spec.topology().cpuCount(), r.cpus().perCpuBusyPct().size());
        machineTime(spec, r, broken);
        for (Report.CgroupReport cg : r.cgroups()) {
            cgroupUsage(spec, r, cg, broken);
            CgroupSpec c = spec.cgroupsByPath().get(cg.path());
            if (c.limited()) {
                bandwidthStatistics(spec, r, c, cg.cpuStat(), broken);
            } else if (cg.cpuStat().nrPeriods() != 0 || cg.cpuStat().nrThrottled() != 0
                    || cg.cpuStat().throttledUsec() != 0 || cg.cpuStat().nrBursts() != 0
                    || cg.cpuStat().burstUsec() != 0) {
                // cpu.stat semantics (kernel/sched/core.c, cpu_extra_stat_show()).
                broken.add(cg.path() + " has no limit but bandwidth statistics " + cg.cpuStat());
            }
        }
        workloads(spec, r, broken);
        affinity(spec, r, broken);
        if (!broken.isEmpty()) {
            fail("seed " + seed + " (replay: ConservationTests.randomSpec(" + seed + "L)): " + describe(spec) + "\n  "
                    + String.join("\n  ", broken));
        }
    }

    /** The run's span, busy + idle = 100 %, and the root cgroup's usage as the CPUs' busy time. */
    private static void machineTime(EngineSpec spec, Report r, List<String> broken) {
        int ncpu = spec.topology().cpuCount();
        long sim = r.simulatedUs();
        if (sim <= 0 || sim > spec.durationUs()) {
            broken.add("simulatedUs " + sim + " outside (0, " + spec.durationUs() + "]");
        }
        // busy + idle = 100 (both rounded to 0.001).
        double sumPct = r.cpus().busyPct() + r.cpus().idlePct();
        if (Math.abs(sumPct - 100) > 0.0011) {
            broken.add("busyPct + idlePct = " + sumPct);
        }

        // CPU time conserved: the root cgroup's usage is the time the CPUs were busy running tasks
        // (cpuacct of the root = Σ per-CPU busy time; overheads are not charged in this engine version).
        long rootUsage = Specs.cgroup(r, "/").cpuStat().usageUsec();
        double busyUs = 0;
        for (double pct : r.cpus().perCpuBusyPct()) {
            busyUs += pct / 100 * sim;
        }
        // Each per-CPU share is rounded to 0.001 % (± 0.0005 % of the span) and times truncate to µs.
        double tol = ncpu * (0.000005 * sim + 1) + 1;
        if (Math.abs(rootUsage - busyUs) > tol) {
            broken.add("root usage " + rootUsage + " µs ≠ Σ per-CPU busy " + busyUs + " µs (± " + tol + ")");
        }
        double machinePct = 100.0 * rootUsage / ((double) ncpu * sim);
        if (Math.abs(machinePct - r.cpus().busyPct()) > 0.0011 + 100.0 * (ncpu + 1) / ((double) ncpu * sim)) {
            broken.add("busyPct " + r.cpus().busyPct() + " ≠ root usage share " + machinePct);
        }
        for (int c = 0; c < ncpu; c++) {
            double pct = r.cpus().perCpuBusyPct().get(c);
            if (pct < 0 || pct > 100) {
                broken.add("cpu " + c + " busy " + pct + " %");
            }
        }
    }

    /** A cgroup's usage: within the machine, within its parent's, the sum of its subtree's workloads. */
    private static void cgroupUsage(EngineSpec spec, Report r, Report.CgroupReport cg, List<String> broken) {
        int ncpu = spec.topology().cpuCount();
        long sim = r.simulatedUs();
        String path = cg.path();
        Report.CpuStat st = cg.cpuStat();
        // A cgroup cannot use more than every CPU all the time.
        if (st.usageUsec() > (long) ncpu * sim) {
            broken.add(path + " usage " + st.usageUsec() + " > CPUs × time " + (long) ncpu * sim);
        }
        // A child's usage is part of its parent's (cpuacct charges every ancestor).
        String parent = spec.cgroupsByPath().get(path).parentPath();
        if (parent != null) {
            long pu = Specs.cgroup(r, parent).cpuStat().usageUsec();
            if (st.usageUsec() > pu) {
                broken.add(path + " usage " + st.usageUsec() + " > parent " + parent + " usage " + pu);
            }
        }
        // The subtree's workloads account for all of the cgroup's usage (each rounds down to µs).
        long sum = 0;
        int n = 0;
        for (WorkloadSpec w : spec.workloads()) {
            if (inSubtree(w.cgroup(), path)) {
                sum += Specs.workload(r, w.name()).cpuUsec();
                n++;
            }
        }
        if (Math.abs(sum - st.usageUsec()) > n + 1) {
            broken.add(path + " usage " + st.usageUsec() + " ≠ Σ workload cpuUsec in its subtree " + sum);
        }
    }

    /** A limited cgroup's cpu.stat (kernel/sched/core.c, cpu_extra_stat_show()) against its periods and quota. */
    private static void bandwidthStatistics(EngineSpec spec, Report r, CgroupSpec c, Report.CpuStat st,
                                            List<String> broken) {
        int ncpu = spec.topology().cpuCount();
        long sim = r.simulatedUs();
        long tickUs = (spec.kernel().tickNs() + 999) / 1000;
        String path = c.path();
        // nr_throttled moves only in the period timer, by the same overrun as nr_periods.
        if (st.nrThrottled() > st.nrPeriods()) {
            broken.add(path + " nrThrottled " + st.nrThrottled() + " > nrPeriods " + st.nrPeriods());
        }
        // nr_bursts moves at most once per refill, and a refill happens at most once per period.
        if (st.nrBursts() > st.nrPeriods()) {
            broken.add(path + " nrBursts " + st.nrBursts() + " > nrPeriods " + st.nrPeriods());
        }
        // A period timer expires at most once per period; the first expiry may come before one period.
        if (st.nrPeriods() > sim / c.periodUs() + 1) {
            broken.add(path + " nrPeriods " + st.nrPeriods() + " for " + sim + " µs of " + c.periodUs() + " µs periods");
        }
        if (st.throttledUsec() > (long) ncpu * sim) {
            broken.add(path + " throttledUsec " + st.throttledUsec() + " > CPUs × time");
        }
        // The pool gets quota (+ burst) at configuration and one quota per timer callback (at most one per
        // counted period); a CPU overruns its local runtime by at most the time between two
        // update_curr() calls (a tick) before it is throttled or rescheduled.
        long burst = spec.kernel().on(Feature.BANDWIDTH_BURST) ? c.burstUs() : 0;
        long supply = c.quotaUs() + burst + st.nrPeriods() * c.quotaUs();
        if (st.usageUsec() > supply + (long) ncpu * tickUs) {
            broken.add(path + " usage " + st.usageUsec() + " > quota supplied " + supply + " + CPUs × tick");
        }
    }

    /** Each workload's CPU time within its threads' CPUs, its completion within the run, latencies per wakeup. */
    private static void workloads(EngineSpec spec, Report r, List<String> broken) {
        int ncpu = spec.topology().cpuCount();
        long sim = r.simulatedUs();
        for (int i = 0; i < spec.workloads().size(); i++) {
            WorkloadSpec w = spec.workloads().get(i);
            Report.WorkloadReport wr = r.workloads().get(i);
            int allowed = w.cpus() == null ? ncpu : w.cpus().length;
            long cap = (long) Math.min(allowed, w.threadCount()) * sim;
            if (wr.cpuUsec() < 0 || wr.cpuUsec() > cap) {
                broken.add(w.name() + " cpuUsec " + wr.cpuUsec() + " outside [0, " + cap + "]");
            }
            if (wr.completionUs() > sim) {
                broken.add(w.name() + " completed at " + wr.completionUs() + " after the end " + sim);
            }
            if (wr.wakeupLatencyUs().count() > wr.wakeups()) {
                broken.add(w.name() + " latency samples " + wr.wakeupLatencyUs().count() + " > wakeups " + wr.wakeups());
            }
        }
    }

    /** Affinity: a CPU that no workload may use never runs anything. */
    private static void affinity(EngineSpec spec, Report r, List<String> broken) {
        int ncpu = spec.topology().cpuCount();
        boolean[] usable = new boolean[ncpu];
        for (WorkloadSpec w : spec.workloads()) {
            if (w.cpus() == null) {
                java.util.Arrays.fill(usable, true);
            } else {
                for (int c : w.cpus()) {
                    usable[c] = true;
                }
            }
        }
        for (int c = 0; c < ncpu; c++) {
            if (!usable[c] && r.cpus().perCpuBusyPct().get(c) != 0.0) {
                broken.add("cpu " + c + " is outside every affinity but busy " + r.cpus().perCpuBusyPct().get(c) + " %");
            }
        }
    }

    static boolean inSubtree(String path, String root) {
        return root.equals("/") || path.equals(root) || path.startsWith(root + "/");
    }
}
