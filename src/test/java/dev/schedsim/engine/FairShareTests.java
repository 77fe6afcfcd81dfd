package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fairness by weight, within 2 % for CPU-bound equal tasks, for
 * the EEVDF profile (6.18) and the CFS profile (6.1). Expected shares come from the weights alone:
 * sched_prio_to_weight[] for nice, shares = cpu.weight · 1024 / 100 for cgroups (kernel/sched/core.c,
 * cpu_weight_write_u64()).
 */
class FairShareTests {
    static final double TOLERANCE = 0.02;
    static final int[] CPU0 = {0};

    /** sched_prio_to_weight[nice + 20] (kernel/sched/core.c), the two values the nice test uses. */
    static final long WEIGHT_NICE_0 = 1024;
    static final long WEIGHT_NICE_5 = 335;

    private static void assertShare(double expected, double actual, String what) {
        assertTrue(Math.abs(actual - expected) <= TOLERANCE * expected,
                what + ": share " + actual + ", expected " + expected + " ± 2 %");
    }

    @ParameterizedTest(name = "profile {0}")
    @ValueSource(strings = {"6.18", "6.1"})
    void cgroupWeightsSplitTheMachine(String profile) {
        int weightA = 200;
        int weightB = 100;
        EngineSpec spec = Specs.spec(Specs.preset("validation-2c"), Specs.kernel(profile),
                List.of(CgroupSpec.unlimited("/a", weightA), CgroupSpec.unlimited("/b", weightB)),
                List.of(WorkloadSpec.cpuBound("a", "/a", 2, 0), WorkloadSpec.cpuBound("b", "/b", 2, 0)),
                2_000_000);
        Report r = Specs.run(spec, 1);
        long a = Specs.cgroup(r, "/a").cpuStat().usageUsec();
        long b = Specs.cgroup(r, "/b").cpuStat().usageUsec();
        // Both groups saturate their CPUs, so the split follows the group entities' weights:
        // shares = cpu.weight · 1024 / 100 (sched_group_set_shares), split per CPU by calc_group_shares().
        assertShare((double) weightA / (weightA + weightB), (double) a / (a + b), "/a");
        // The machine is fully used by the two groups: 2 CPUs × 2 s.
        assertShare(2.0 * r.simulatedUs(), a + b, "usage of /a + /b against 2 CPUs × time");
    }

    @ParameterizedTest(name = "profile {0}")
    @ValueSource(strings = {"6.18", "6.1"})
    void niceWeightsSplitOneCpu(String profile) {
        EngineSpec spec = Specs.spec(Specs.preset("validation-2c"), Specs.kernel(profile), List.of(),
                List.of(TestWorkloads.cpuBound("n0", "/", 1, 0, CPU0, 0),
                        TestWorkloads.cpuBound("n5", "/", 1, 5, CPU0, 0)),
                2_000_000);
        Report r = Specs.run(spec, 1);
        long n0 = Specs.workload(r, "n0").cpuUsec();
        long n5 = Specs.workload(r, "n5").cpuUsec();
        // Two runnable tasks on one run queue share it in proportion to their weights 1024 : 335.
        assertShare((double) WEIGHT_NICE_0 / (WEIGHT_NICE_0 + WEIGHT_NICE_5), (double) n0 / (n0 + n5), "nice 0");
        assertShare((double) WEIGHT_NICE_5 / (WEIGHT_NICE_0 + WEIGHT_NICE_5), (double) n5 / (n0 + n5), "nice 5");
        // Pinned to CPU 0: CPU 1 never runs anything.
        assertEquals(0.0, r.cpus().perCpuBusyPct().get(1));
    }

    @ParameterizedTest(name = "profile {0}, {1} tasks")
    @CsvSource({"6.18, 2", "6.18, 3", "6.18, 5", "6.18, 9", "6.1, 2", "6.1, 3", "6.1, 5", "6.1, 9"})
    void equalTasksOnOneCpuGetEqualTime(String profile, int n) {
        List<WorkloadSpec> w = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            w.add(TestWorkloads.cpuBound("t" + i, "/", 1, 0, CPU0, 0));
        }
        EngineSpec spec = Specs.spec(Specs.preset("validation-2c"), Specs.kernel(profile), List.of(), w, 2_000_000);
        Report r = Specs.run(spec, 1);
        long total = r.workloads().stream().mapToLong(Report.WorkloadReport::cpuUsec).sum();
        for (Report.WorkloadReport wr : r.workloads()) {
            assertShare(1.0 / n, (double) wr.cpuUsec() / total, wr.name());
        }
    }

    /**
     * A run queue of 48 entities (beyond CfsRq.TREE_AT, so the picks search the deadline-sorted tree): half at
     * nice 0, half at nice 5, each task gets its weight's share of the CPU under EEVDF.
     */
    @org.junit.jupiter.api.Test
    void aLongEevdfRunQueueSharesByWeight() {
        int half = 24;
        assertTrue(2 * half >= CfsRq.TREE_AT, "the queue must be long enough for the tree");
        List<WorkloadSpec> w = new ArrayList<>();
        for (int i = 0; i < half; i++) {
            w.add(TestWorkloads.cpuBound("n0-" + i, "/", 1, 0, CPU0, 0));
            w.add(TestWorkloads.cpuBound("n5-" + i, "/", 1, 5, CPU0, 0));
        }
        EngineSpec spec = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.18"), List.of(), w, 10_000_000);
        Report r = Specs.run(spec, 1);
        long total = r.workloads().stream().mapToLong(Report.WorkloadReport::cpuUsec).sum();
        double all = half * (double) (WEIGHT_NICE_0 + WEIGHT_NICE_5);
        for (Report.WorkloadReport wr : r.workloads()) {
            long weight = wr.name().startsWith("n0") ? WEIGHT_NICE_0 : WEIGHT_NICE_5;
            assertShare(weight / all, (double) wr.cpuUsec() / total, wr.name());
        }
    }

    /**
     * CFS on a 48-entity queue (the tree's leftmost-vruntime pick): equal tasks, equal time. (Equal weights:
     * CFS preempts at ticks, so a nice-5 task's share is quantized to whole 4 ms ticks, as in the kernel.)
     */
    @org.junit.jupiter.api.Test
    void aLongCfsRunQueueSharesEqually() {
        int n = 48;
        assertTrue(n >= CfsRq.TREE_AT, "the queue must be long enough for the tree");
        List<WorkloadSpec> w = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            w.add(TestWorkloads.cpuBound("t" + i, "/", 1, 0, CPU0, 0));
        }
        EngineSpec spec = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.1"), List.of(), w, 20_000_000);
        Report r = Specs.run(spec, 1);
        long total = r.workloads().stream().mapToLong(Report.WorkloadReport::cpuUsec).sum();
        for (Report.WorkloadReport wr : r.workloads()) {
            assertShare(1.0 / n, (double) wr.cpuUsec() / total, wr.name());
        }
    }

    @ParameterizedTest(name = "profile {0}")
    @ValueSource(strings = {"6.18", "6.1"})
    void nestedGroupWeightsMultiplyOnOneCpu(String profile) {
        // All load on one CPU: each group entity carries its whole shares (calc_group_shares with
        // tg_weight == local load), so a share is the product of the weight ratios down the hierarchy.
        int a = 100;
        int b = 300;
        int ax = 300;
        int ay = 100;
        EngineSpec spec = Specs.spec(Specs.preset("validation-2c"), Specs.kernel(profile),
                List.of(CgroupSpec.unlimited("/a", a), CgroupSpec.unlimited("/a/x", ax),
                        CgroupSpec.unlimited("/a/y", ay), CgroupSpec.unlimited("/b", b)),
                List.of(TestWorkloads.cpuBound("x", "/a/x", 1, 0, CPU0, 0),
                        TestWorkloads.cpuBound("y", "/a/y", 1, 0, CPU0, 0),
                        TestWorkloads.cpuBound("b", "/b", 1, 0, CPU0, 0)),
                2_000_000);
        Report r = Specs.run(spec, 1);
        double total = Specs.cgroup(r, "/").cpuStat().usageUsec();
        double shareA = (double) a / (a + b);
        assertShare(shareA, Specs.cgroup(r, "/a").cpuStat().usageUsec() / total, "/a");
        assertShare((double) b / (a + b), Specs.cgroup(r, "/b").cpuStat().usageUsec() / total, "/b");
        assertShare(shareA * ax / (ax + ay), Specs.cgroup(r, "/a/x").cpuStat().usageUsec() / total, "/a/x");
        assertShare(shareA * ay / (ax + ay), Specs.cgroup(r, "/a/y").cpuStat().usageUsec() / total, "/a/y");
    }

    @ParameterizedTest(name = "{0} with {1} threads")
    @CsvSource({"validation-2c, 2", "validation-2c, 5", "desktop-8c-smt2, 16", "desktop-8c-smt2, 24",
        "xeon-2s-4c-smt2, 20"})
    void theMachineIsFullyUsedWhenThreadsAreAtLeastCpus(String preset, int threads) {
        TopologySpec topo = Specs.preset(preset);
        long durationUs = 1_000_000;
        EngineSpec spec = Specs.spec(topo, Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.cpuBound("spin", "/", threads, 0)), durationUs);
        Report r = Specs.run(spec, 1);
        // Every CPU leaves idle once at time 0, which costs the shallow idle state's exit latency
        // (HardwareModel); after that a CPU-bound thread is always runnable on it (NO_HZ idle never starts).
        HardwareModel hw = HardwareModel.defaults(topo.threadsPerCore());
        double minBusyPct = 100.0 * (1 - hw.shallowIdleExitNs() / (durationUs * 1000.0)) - 0.001;
        assertTrue(r.cpus().busyPct() >= minBusyPct, "busyPct " + r.cpus().busyPct() + " < " + minBusyPct);
        assertTrue(r.cpus().busyPct() <= 100.0);
        for (int c = 0; c < topo.cpuCount(); c++) {
            double pct = r.cpus().perCpuBusyPct().get(c);
            assertTrue(pct >= minBusyPct, "cpu " + c + " busy " + pct);
        }
        assertEquals(100.0, r.cpus().busyPct() + r.cpus().idlePct(), 1e-9);
    }
}
