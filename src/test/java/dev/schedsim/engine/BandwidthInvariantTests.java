package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Property-based checks of the bandwidth model on random specs (a seeded generator; the failing case's
 * seed is in the message): over many periods a limited group's usage stays within its quotas plus the
 * runtime that can sit on CPUs, whatever the workload, hierarchy, profile or HZ.
 */
class BandwidthInvariantTests {
    static final String[] PRESETS = {"validation-2c", "desktop-8c-smt2", "xeon-2s-4c-smt2"};
    static final String[] PROFILES = {"4.18", "5.4", "6.1", "6.18"};
    static final int[] HZ = {100, 250, 1000};

    record Case(long seed, EngineSpec spec, int cpus, long tickNs, long sliceNs) {
    }

    static Case randomCase(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        String preset = PRESETS[r.nextInt(PRESETS.length)];
        int cpus = Specs.preset(preset).cpuCount();
        int hz = HZ[r.nextInt(HZ.length)];
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.BANDWIDTH_TIMER_INTERLEAVE, r.nextBoolean());
        f.put(Feature.TASK_BASED_THROTTLE, r.nextBoolean());
        List<CgroupSpec> cg = new ArrayList<>();
        List<WorkloadSpec> w = new ArrayList<>();
        int groups = 1 + r.nextInt(3);
        for (int g = 0; g < groups; g++) {
            long period = 10_000 + r.nextInt(20) * 10_000L;
            long quota = Math.max(1_000, (long) (period * (0.1 + r.nextDouble() * cpus * 0.8)));
            long burst = r.nextInt(3) == 0 ? r.nextLong(quota + 1) : 0;
            String path = "/g" + g;
            cg.add(new CgroupSpec(path, quota, period, burst, 1 + r.nextInt(400)));
            String leaf = path;
            if (r.nextBoolean()) {
                leaf = path + "/c";
                cg.add(r.nextBoolean() ? CgroupSpec.unlimited(leaf, 100)
                        : new CgroupSpec(leaf, Math.max(1_000, quota / 2), period, 0, 100));
            }
            int threads = 1 + r.nextInt(3 * cpus);
            w.add(r.nextBoolean()
                    ? WorkloadSpec.cpuBound("w" + g, leaf, threads, 0)
                    : WorkloadSpec.periodic("w" + g, leaf, threads, 200 + r.nextInt(5_000), r.nextInt(20_000),
                            r.nextInt(40)));
        }
        EngineSpec spec = Specs.spec(Specs.preset(preset), Specs.kernel(PROFILES[r.nextInt(PROFILES.length)], hz, f),
                cg, w, 400_000 + r.nextInt(1_200_000));
        return new Case(seed, spec, cpus, spec.kernel().tickNs(), spec.kernel().bandwidthSliceUs() * 1000);
    }

    @Test
    void usageStaysWithinQuotasPlusRuntimeOnCpus() {
        for (long seed = 1; seed <= 60; seed++) {
            Case c = randomCase(seed);
            Report r = Specs.run(c.spec(), seed);
            for (CgroupSpec g : c.spec().cgroups()) {
                if (!g.limited()) {
                    continue;
                }
                Report.CpuStat st = Specs.cgroup(r, g.path()).cpuStat();
                long burst = c.spec().kernel().on(Feature.BANDWIDTH_BURST) ? g.burstUs() : 0;
                // Pool: quota at configuration (+ burst from the cpu.max.burst write), one quota per counted
                // period, and at most one more per period the timer was off (it only turns off while unused).
                long periodsInRun = r.simulatedUs() / g.periodUs() + 1;
                long pool = (periodsInRun + 1) * g.quotaUs() + burst;
                // Runtime that can sit on CPUs beyond the pool: a slice pulled plus a tick of overrun per CPU.
                long onCpus = c.cpus() * (c.sliceNs() + c.tickNs()) / 1000;
                assertTrue(st.usageUsec() <= pool + onCpus,
                        "seed " + seed + " " + g.path() + ": usage " + st.usageUsec() + " > " + pool + " + " + onCpus);
                assertTrue(st.nrThrottled() <= st.nrPeriods(), "seed " + seed + ": nr_throttled <= nr_periods");
                assertTrue(st.nrPeriods() <= periodsInRun, "seed " + seed + ": nr_periods <= elapsed periods");
            }
        }
    }

    @Test
    void cpuTimeIsConserved() {
        for (long seed = 100; seed < 140; seed++) {
            Case c = randomCase(seed);
            Report r = Specs.run(c.spec(), seed);
            long root = Specs.cgroup(r, "/").cpuStat().usageUsec();
            long workloads = r.workloads().stream().mapToLong(Report.WorkloadReport::cpuUsec).sum();
            assertTrue(Math.abs(root - workloads) <= r.workloads().size(), "seed " + seed + ": root usage "
                    + root + " != Σ workload CPU " + workloads);
            double busyUs = r.cpus().busyPct() / 100.0 * c.cpus() * r.simulatedUs();
            assertTrue(Math.abs(busyUs - root) <= 0.001 * c.cpus() * r.simulatedUs() + 10,
                    "seed " + seed + ": busy " + busyUs + " vs usage " + root);
            assertTrue(root <= (long) c.cpus() * r.simulatedUs(), "seed " + seed + ": usage beyond CPUs × time");
        }
    }
}
