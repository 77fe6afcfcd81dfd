package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.request.SimulationPlan;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Means over repetitions, per-run values, the comparison's sign convention and stable output, on reports of the
 * real engine. Every expected number is computed here from those reports, never copied from an output.
 */
class ResultDocumentTests {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The document rounds to 3 decimals; a computed value may differ from it by up to half of that. */
    private static final double ROUNDING = 0.0005 + 1e-9;

    /**
     * On the 2-CPU machine: a periodic task with jitter in /a (so seeds give different runs) against a finite
     * CPU-bound job in /b whose weight is {@code jobWeight}.
     */
    private static EngineSpec spec(int jobWeight, long jobWorkUs, long durationUs) {
        return new EngineSpec(TopologyPresets.byName("validation-2c").spec(),
                KernelConfig.of(KernelProfiles.newest(), 250, Map.of(), 5000),
                List.of(CgroupSpec.unlimited("/", 100), CgroupSpec.unlimited("/a", 100),
                        CgroupSpec.unlimited("/b", jobWeight)),
                List.of(WorkloadSpec.periodic("tick", "/a", 3, 1_000, 2_000, 50),
                        WorkloadSpec.cpuBound("job", "/b", 2, jobWorkUs)), durationUs, false);
    }

    private static Report run(EngineSpec spec, long seed) {
        return Engine.run(spec, seed, Long.MAX_VALUE, RunControl.NONE);
    }

    @Test
    void repetitionsAreAveragedAndVariantsCompared() {
        // The variant gives the job 8x the weight: it should finish sooner and leave the periodic task less.
        EngineSpec baseSpec = spec(100, 400_000, 1_000_000);
        EngineSpec newSpec = spec(800, 400_000, 1_000_000);
        SimulationPlan plan = new SimulationPlan(10, 2, Long.MAX_VALUE,
                List.of(new SimulationPlan.Variant("base", baseSpec), new SimulationPlan.Variant("new", newSpec)));
        // What the runner does: each variant with seeds 10 and 11.
        List<Report> base = List.of(run(baseSpec, 10), run(baseSpec, 11));
        List<Report> variant = List.of(run(newSpec, 10), run(newSpec, 11));
        assertThat(base.get(1)).as("different seeds give different runs").isNotEqualTo(base.get(0));

        String json = SimulationCompletion.result(plan, List.of(base, variant));
        assertThat(SimulationCompletion.result(plan, List.of(base, variant))).isEqualTo(json);
        JsonNode doc = JSON.readTree(json);

        assertVariant(doc.path("variants").get(0), "base", base);
        assertVariant(doc.path("variants").get(1), "new", variant);
        assertComparison(doc, base, variant);
    }

    /** A variant's numbers are the means over its runs, and its runs are listed one by one. */
    private static void assertVariant(JsonNode node, String label, List<Report> runs) {
        assertThat(node.path("label").asString()).isEqualTo(label);
        assertThat(node.path("repetitions").asInt()).isEqualTo(2);
        assertThat(node.path("seeds").toString()).isEqualTo("[10,11]");
        assertThat(node.has("seed")).isFalse();
        // Every number of the variant is the mean over its runs ...
        assertMean(node.path("events"), runs, r -> r.events());
        assertMean(node.path("simulatedUs"), runs, r -> r.simulatedUs());
        for (int c = 0; c < runs.get(0).cgroups().size(); c++) {
            int i = c;
            JsonNode cg = node.path("cgroups").get(c);
            assertThat(cg.path("path").asString()).isEqualTo(runs.get(0).cgroups().get(c).path());
            assertMean(cg.path("cpuStat").path("usageUsec"), runs, r -> r.cgroups().get(i).cpuStat().usageUsec());
        }
        for (int w = 0; w < runs.get(0).workloads().size(); w++) {
            int i = w;
            JsonNode wn = node.path("workloads").get(w);
            assertMean(wn.path("cpuUsec"), runs, r -> r.workloads().get(i).cpuUsec());
            assertMean(wn.path("throughputPerSec"), runs, r -> r.workloads().get(i).throughputPerSec());
            assertMean(wn.path("wakeupLatencyUs").path("p99"), runs,
                    r -> r.workloads().get(i).wakeupLatencyUs().p99());
            // the share of wakeups over 100 µs travels with the percentiles (0-100 %): the mean of what each run
            // shows (Num: a run's value is kept rounded, the share is not a whole number as percentiles mostly are)
            assertMean(wn.path("wakeupLatencyUs").path("over100usPct"), runs,
                    r -> dev.schedsim.result.Num.round(r.workloads().get(i).wakeupLatencyUs().over100usPct()));
            assertThat(wn.path("wakeupLatencyUs").path("over100usPct").asDouble()).isBetween(0.0, 100.0);
            assertMean(wn.path("contextSwitches"), runs, r -> r.workloads().get(i).contextSwitches());
        }
        assertMean(node.path("cpus").path("idlePct"), runs, r -> r.cpus().idlePct());
        assertMean(node.path("scheduler").path("wakeups"), runs, r -> r.scheduler().wakeups());
        // ... and runs lists them one by one.
        assertThat(node.path("runs").size()).isEqualTo(2);
        for (int r = 0; r < 2; r++) {
            JsonNode run = node.path("runs").get(r);
            Report report = runs.get(r);
            assertThat(run.path("seed").asLong()).isEqualTo(10 + r);
            assertThat(run.path("events").asLong()).isEqualTo(report.events());
            assertThat(run.path("workloads").get(0).path("cpuUsec").asLong())
                    .isEqualTo(report.workloads().get(0).cpuUsec());
            assertThat(run.path("workloads").get(1).path("completionUs").asLong())
                    .isEqualTo(report.workloads().get(1).completionUs());
            assertThat(run.path("cgroups").get(2).path("cpuStat").path("usageUsec").asLong())
                    .isEqualTo(report.cgroups().get(2).cpuStat().usageUsec());
        }
    }

    /** The comparison's rows: base against the variant that gives the job 8x the weight. */
    private static void assertComparison(JsonNode doc, List<Report> base, List<Report> variant) {
        // The finite job completed in every run, so its completion is a comparable mean.
        for (Report r : base) {
            assertThat(r.workloads().get(1).completionUs()).isPositive();
        }
        for (Report r : variant) {
            assertThat(r.workloads().get(1).completionUs()).isPositive();
        }
        JsonNode completion = assertRow(doc, "workloads.job.completionUs", base, variant, false,
                r -> r.workloads().get(1).completionUs());
        assertThat(completion.path("baseline").asString()).isEqualTo("base");
        assertThat(completion.path("variant").asString()).isEqualTo("new");
        // More weight, sooner done: lower is better, so the improvement is positive.
        assertThat(completion.path("pctImprovement").asDouble()).isPositive();
        JsonNode throughput = assertRow(doc, "workloads.tick.throughputPerSec", base, variant, true,
                r -> r.workloads().get(0).throughputPerSec());
        // The periodic task, now up against a heavier job, gets fewer cycles done: higher is better, so negative.
        assertThat(throughput.path("pctImprovement").asDouble()).isNegative();
        // The jitter draws differ between seeds, so the spread over repetitions is not zero.
        assertThat(throughput.path("baselineStdPct").asDouble()).isPositive();
        assertRow(doc, "workloads.tick.wakeupLatencyUs.p99", base, variant, false,
                r -> r.workloads().get(0).wakeupLatencyUs().p99());
        assertRow(doc, "cgroups./b.nrThrottled", base, variant, false, r -> r.cgroups().get(2).cpuStat().nrThrottled());
        assertRow(doc, "cpus.idlePct", base, variant, false, r -> r.cpus().idlePct());
    }

    @Test
    void oneVariantHasNoComparisonAndUnfinishedIsNull() {
        // 10 s of work for each job thread in a 200 ms simulation: the engine reports it unfinished (-1).
        EngineSpec spec = spec(100, 10_000_000, 200_000);
        Report r = run(spec, 1);
        assertThat(r.workloads().get(1).completionUs()).isEqualTo(-1);
        SimulationPlan plan = new SimulationPlan(1, 1, Long.MAX_VALUE,
                List.of(new SimulationPlan.Variant("default", spec)));
        JsonNode doc = JSON.readTree(SimulationCompletion.result(plan, List.of(List.of(r))));
        assertThat(doc.has("comparison")).isFalse();
        JsonNode v = doc.path("variants").get(0);
        assertThat(v.has("runs")).isFalse();
        assertThat(v.path("seeds").toString()).isEqualTo("[1]");
        assertThat(v.path("workloads").get(1).path("name").asString()).isEqualTo("job");
        assertThat(v.path("workloads").get(1).path("completionUs").isNull()).isTrue();
        assertThat(v.path("workloads").get(1).path("cpuUsec").asLong()).isEqualTo(r.workloads().get(1).cpuUsec());
        assertThat(v.path("events").asLong()).isEqualTo(r.events());
    }

    private static double mean(List<Report> runs, ToDoubleFunction<Report> f) {
        return runs.stream().mapToDouble(f).average().orElseThrow();
    }

    /** Sample standard deviation as a percentage of the mean's magnitude. */
    private static double stdPct(List<Report> runs, ToDoubleFunction<Report> f) {
        double m = mean(runs, f);
        double ss = runs.stream().mapToDouble(f).map(x -> (x - m) * (x - m)).sum();
        return Math.sqrt(ss / (runs.size() - 1)) / Math.abs(m) * 100;
    }

    private static void assertMean(JsonNode actual, List<Report> runs, ToDoubleFunction<Report> f) {
        assertThat(actual.isNumber()).as(actual.toString()).isTrue();
        assertThat(actual.asDouble()).isCloseTo(mean(runs, f), within(ROUNDING));
    }

    /** Checks a comparison row against the means, improvement and spreads computed from the reports. */
    private static JsonNode assertRow(JsonNode doc, String metric, List<Report> base, List<Report> variant,
                                      boolean higherIsBetter, ToDoubleFunction<Report> f) {
        JsonNode row = row(doc, metric);
        double bm = mean(base, f);
        double vm = mean(variant, f);
        assertThat(row.path("baselineMean").asDouble()).isCloseTo(bm, within(ROUNDING));
        assertThat(row.path("variantMean").asDouble()).isCloseTo(vm, within(ROUNDING));
        JsonNode pct = row.path("pctImprovement");
        if (bm == 0 && vm == 0) {
            assertThat(pct.asDouble()).as(metric).isZero();
        } else if (bm == 0) {
            assertThat(pct.isNull()).as(metric).isTrue();
        } else {
            // Positive when the variant is better: lower, or higher for higher-is-better metrics.
            double expected = (higherIsBetter ? vm - bm : bm - vm) / Math.abs(bm) * 100;
            assertThat(pct.asDouble()).as(metric).isCloseTo(expected, within(ROUNDING));
        }
        if (bm != 0) {
            assertThat(row.path("baselineStdPct").asDouble()).as(metric).isCloseTo(stdPct(base, f), within(ROUNDING));
        }
        if (vm != 0) {
            assertThat(row.path("variantStdPct").asDouble()).as(metric).isCloseTo(stdPct(variant, f),
                    within(ROUNDING));
        }
        return row;
    }

    private static JsonNode row(JsonNode doc, String metric) {
        for (JsonNode r : doc.path("comparison")) {
            if (r.path("metric").asString().equals(metric)) {
                return r;
            }
        }
        throw new AssertionError("no row " + metric + " in " + doc.path("comparison"));
    }
}
