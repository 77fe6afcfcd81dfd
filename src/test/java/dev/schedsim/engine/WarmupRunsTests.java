package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Warm-up runs ({@link EngineSpec.Warmup}): the same spec run before the reported one on the same machine, nothing
 * of them in the report.
 */
class WarmupRunsTests {
    private static final long DURATION_US = 300_000;

    private static EngineSpec spec(boolean trace) {
        EngineSpec s = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18"),
                List.of(new CgroupSpec("/limited", 40_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.periodic("p", "/limited", 4, 2000, 3000),
                        WorkloadSpec.periodic("q", "/", 2, 500, 1500)), DURATION_US);
        return new EngineSpec(s.topology(), s.kernel(), s.cgroups(), s.workloads(), DURATION_US, trace);
    }

    @Test
    void noWarmupRunsIsTheRunItself() {
        EngineSpec s = spec(false);
        assertEquals(Specs.run(s, 7), Specs.run(s.withWarmup(new EngineSpec.Warmup(0, 500_000)), 7));
    }

    @Test
    void theReportCoversOnlyTheReportedRun() {
        EngineSpec s = spec(true);
        Report plain = Specs.run(s, 7);
        Report warmed = Specs.run(s.withWarmup(new EngineSpec.Warmup(2, 100_000)), 7);
        assertNotEquals(plain, warmed);
        assertEquals(DURATION_US, warmed.simulatedUs());
        assertEquals(plain.cgroups().stream().map(Report.CgroupReport::path).toList(),
                warmed.cgroups().stream().map(Report.CgroupReport::path).toList());
        assertEquals(plain.workloads().stream().map(Report.WorkloadReport::name).toList(),
                warmed.workloads().stream().map(Report.WorkloadReport::name).toList());
        assertEquals(plain.timeSeries().busyCpus().size(), warmed.timeSeries().busyCpus().size());
        // the limited group's periods are its own run's (3 periods of 100 ms, and the one running at the end)
        Report.CpuStat st = Specs.cgroup(warmed, "/limited").cpuStat();
        assertTrue(st.nrPeriods() <= 4 && st.nrPeriods() >= 2, st.toString());
        assertTrue(st.usageUsec() <= 4 * 40_000, st.toString());
        // the root's usage and the CPUs' busy time fit the reported window
        assertTrue(Specs.cgroup(warmed, "/").cpuStat().usageUsec() <= 2 * DURATION_US);
        assertTrue(warmed.cpus().busyPct() <= 100);
        for (Report.WorkloadReport w : warmed.workloads()) {
            Report.WorkloadReport p = Specs.workload(plain, w.name());
            assertTrue(Math.abs(w.cpuUsec() - p.cpuUsec()) < 0.2 * p.cpuUsec(), w + " against " + p);
        }
        for (Report.TraceEvent e : warmed.trace().events()) {
            assertTrue(e.timeNs() >= 0 && e.timeNs() <= DURATION_US * 1000, e.toString());
        }
        assertFalse(warmed.trace().threads().stream().anyMatch(t -> t.name().contains("~warmup")));
        assertFalse(warmed.trace().events().isEmpty());
    }

    @Test
    void aFiniteWorkloadCompletesOnTheReportedRunsClock() {
        EngineSpec s = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.hackbench("hb", "/", 1, 4, 200, 100)), 1_000_000);
        Report plain = Specs.run(s, 3);
        Report warmed = Specs.run(s.withWarmup(new EngineSpec.Warmup(1, 50_000)), 3);
        long done = Specs.workload(warmed, "hb").completionUs();
        long before = Specs.workload(plain, "hb").completionUs();
        assertTrue(before > 0 && done > 0 && done < 2 * before, done + " against " + before);
        assertEquals(done, warmed.simulatedUs(), "the run ends when its only workload completes");
    }
}
