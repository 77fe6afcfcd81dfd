package dev.schedsim.engine;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.stats.Recorder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.trace.TraceSlices;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's time series add up to its totals, and the trace records what ran and what was throttled. */
class TimeSeriesAndTraceTests {
    private static EngineSpec spec(boolean trace) {
        EngineSpec s = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.18"),
                List.of(new CgroupSpec("/g", 50_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.cpuBound("w", "/g", 2, 0), WorkloadSpec.periodic("p", "/", 1, 1_000, 3_000)),
                1_000_000);
        return new EngineSpec(s.topology(), s.kernel(), s.cgroups(), s.workloads(), s.durationUs(), trace);
    }

    @Test
    void seriesSumToTheTotals() {
        Report r = Specs.run(spec(false), 1);
        Report.TimeSeries ts = r.timeSeries();
        assertTrue(ts.busyCpus().size() <= Recorder.MAX_BUCKETS);
        for (Report.CgroupSeries s : ts.cgroups()) {
            Report.CpuStat st = Specs.cgroup(r, s.path()).cpuStat();
            long usage = s.usageUs().stream().mapToLong(Long::longValue).sum();
            long throttled = s.throttledUs().stream().mapToLong(Long::longValue).sum();
            assertEquals(st.usageUsec(), usage, ts.busyCpus().size(), s.path() + " usage");
            assertEquals(st.throttledUsec(), throttled, ts.busyCpus().size(), s.path() + " throttled");
        }
        double busyCpuUs = ts.busyCpus().stream().mapToDouble(Double::doubleValue).sum() * ts.bucketUs();
        assertEquals(r.cpus().busyPct() / 100 * 2 * r.simulatedUs(), busyCpuUs, 0.01 * r.simulatedUs());
        assertNull(r.trace(), "no trace unless asked");
    }

    @Test
    void theTraceHasRunSlicesAndThrottleIntervalsThatAddUp() {
        Report r = Specs.run(spec(true), 1);
        Report.Trace t = r.trace();
        TraceSlices slices = TraceSlices.of(t, 2);
        long run = slices.runs().stream().mapToLong(s -> s.endNs() - s.startNs()).sum() / 1000;
        // (cpu.stat counts a throttled interval when it ends; the trace also has those still open at its end)
        long throttled = slices.throttled().stream().filter(s -> !s.open())
                .mapToLong(s -> s.endNs() - s.startNs()).sum() / 1000;
        long usage = Specs.cgroup(r, "/").cpuStat().usageUsec();
        // (run slices include the kernel time a switch costs, which is no task's CPU time: within 2 %)
        assertEquals(usage, run, usage * 0.02, "run slices cover the CPU time");
        assertEquals(Specs.cgroup(r, "/g").cpuStat().throttledUsec(), throttled, 1 + t.events().size() / 1000.0);
        assertTrue(t.events().stream().allMatch(e -> e.cpu() >= 0 && e.cpu() < 2));
        assertEquals(Specs.run(spec(false), 1).cgroups(), r.cgroups(), "tracing does not change the run");
    }

    @Test
    void everySwitchWakeupAndMigrationIsTracedAsItHappened() {
        Report r = Specs.run(spec(true), 1);
        Report.Trace t = r.trace();
        assertTrue(!t.truncated() && t.endNs() == r.simulatedUs() * 1000);
        long previous = 0;
        for (Report.TraceEvent e : t.events()) {
            assertTrue(e.timeNs() >= previous, "in time order: " + e);
            previous = e.timeNs();
        }
        for (Report.WorkloadReport w : r.workloads()) {
            java.util.Set<Integer> pids = new java.util.HashSet<>();
            t.threads().stream().filter(th -> th.name().startsWith(w.name() + "/")).forEach(th -> pids.add(th.pid()));
            assertEquals(w.contextSwitches(), count(t, "switch_out", pids), w.name() + " switches");
            assertEquals(w.wakeups(), count(t, "waking", pids), w.name() + " wakeups");
            long migrations = t.events().stream().filter(e -> pids.contains(e.pid())
                    && (e.kind().equals("migrate") || e.kind().equals("waking") && e.fromCpu() != e.toCpu()))
                    .count();
            assertEquals(w.migrations(), migrations, w.name() + " migrations");
        }
        // The periodic thread sleeps (S), the CPU-bound ones are throttled or preempted (R).
        assertTrue(t.events().stream().anyMatch(e -> "S".equals(e.state())));
        assertTrue(t.events().stream().anyMatch(e -> "R".equals(e.state())));
    }

    @Test
    void aTraceCutByItsBudgetEndsWhereItWasCut() {
        EngineSpec s = spec(true);
        Report r = Specs.run(new EngineSpec(s.topology(), s.kernel(), s.cgroups(), s.workloads(), 100_000_000, true),
                1);
        Report.Trace t = r.trace();
        assertTrue(t.truncated());
        assertEquals(Recorder.MAX_TRACE_EVENTS, t.events().size());
        assertTrue(t.endNs() >= t.events().get(t.events().size() - 1).timeNs() && t.endNs() < r.simulatedUs() * 1000);
    }

    private static long count(Report.Trace t, String kind, java.util.Set<Integer> pids) {
        return t.events().stream().filter(e -> e.kind().equals(kind) && pids.contains(e.pid())).count();
    }
}
