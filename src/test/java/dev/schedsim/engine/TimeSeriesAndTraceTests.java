package dev.schedsim.engine;

import dev.schedsim.engine.stats.Recorder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;
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
        long run = t.events().stream().filter(e -> e.kind().equals("run")).mapToLong(Report.TraceEvent::durationUs).sum();
        long throttled = t.events().stream().filter(e -> e.kind().equals("throttled"))
                .mapToLong(Report.TraceEvent::durationUs).sum();
        long usage = Specs.cgroup(r, "/").cpuStat().usageUsec();
        assertEquals(usage, run, t.events().size(), "run slices cover the CPU time");
        assertEquals(Specs.cgroup(r, "/g").cpuStat().throttledUsec(), throttled, t.events().size());
        assertTrue(t.events().stream().allMatch(e -> e.cpu() >= 0 && e.cpu() < 2));
        assertEquals(Specs.run(spec(false), 1).cgroups(), r.cgroups(), "tracing does not change the run");
    }
}
