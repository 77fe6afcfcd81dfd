package dev.schedsim.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.FakeEngine;
import dev.schedsim.engine.EngineSpec;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunControl;
import dev.schedsim.engine.bandwidth.CgroupSpec;
import dev.schedsim.engine.kernel.KernelConfig;
import dev.schedsim.engine.kernel.KernelProfiles;
import dev.schedsim.engine.topology.TopologyPresets;
import dev.schedsim.engine.workload.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Means over repetitions, per-run values, the comparison's sign convention and stable output. */
class ResultDocumentTests {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static EngineSpec spec() {
        return new EngineSpec(TopologyPresets.byName("validation-2c").spec(),
                KernelConfig.of(KernelProfiles.newest(), 250, Map.of(), 5000),
                List.of(CgroupSpec.unlimited("/", 100), new CgroupSpec("/a", 50_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.cpuBound("w", "/a", 2, 1000)), 1_000_000, false);
    }

    @Test
    void repetitionsAreAveragedAndVariantsCompared() {
        EngineSpec spec = spec();
        SimulationPlan plan = new SimulationPlan(10, 2, 1000, List.of(new SimulationPlan.Variant("base", spec),
                new SimulationPlan.Variant("new", spec)));
        List<Report> base = List.of(FakeEngine.run(spec, 10, 0, RunControl.NONE),
                FakeEngine.run(spec, 11, 0, RunControl.NONE));
        // The variant: the same runs with a higher seed offset, so its latencies and completion are higher.
        List<Report> variant = List.of(FakeEngine.run(spec, 20, 0, RunControl.NONE),
                FakeEngine.run(spec, 21, 0, RunControl.NONE));
        String json = ResultDocument.build(plan, List.of(base, variant));
        assertThat(ResultDocument.build(plan, List.of(base, variant))).isEqualTo(json);

        JsonNode doc = JSON.readTree(json);
        JsonNode v0 = doc.path("variants").get(0);
        assertThat(v0.path("seeds").toString()).isEqualTo("[10,11]");
        assertThat(v0.path("runs").size()).isEqualTo(2);
        assertThat(v0.has("seed")).isFalse();
        // completionUs = d/4 + seed: mean of 250010 and 250011.
        assertThat(v0.path("workloads").get(0).path("completionUs").asDouble()).isEqualTo(250_010.5);
        assertThat(v0.path("runs").get(1).path("workloads").get(0).path("completionUs").asLong()).isEqualTo(250_011);

        JsonNode completion = row(doc, "workloads.w.completionUs");
        assertThat(completion.path("baseline").asString()).isEqualTo("base");
        assertThat(completion.path("variant").asString()).isEqualTo("new");
        assertThat(completion.path("pctImprovement").asDouble()).isNegative();
        // Throughput = 333.333 + seed: higher for the variant, so positive; runs differ by 1, so std > 0.
        JsonNode throughput = row(doc, "workloads.w.throughputPerSec");
        assertThat(throughput.path("pctImprovement").asDouble()).isPositive();
        assertThat(throughput.path("baselineStdPct").asDouble()).isPositive();
        assertThat(row(doc, "cgroups./a.nrThrottled").path("pctImprovement").asDouble()).isZero();
        assertThat(row(doc, "cpus.idlePct")).isNotNull();
    }

    @Test
    void oneVariantHasNoComparisonAndUnfinishedIsNull() {
        EngineSpec spec = spec();
        Report r = FakeEngine.run(spec, 1, 0, RunControl.NONE);
        Report.WorkloadReport w = r.workloads().get(0);
        Report unfinished = new Report(r.simulatedUs(), r.events(), r.cgroups(), List.of(new Report.WorkloadReport(
                w.name(), w.cpuUsec(), -1, w.throughputPerSec(), w.wakeupLatencyUs(), 0, 0, 0)), r.cpus(),
                r.scheduler());
        SimulationPlan plan = new SimulationPlan(1, 1, 1000, List.of(new SimulationPlan.Variant("default", spec)));
        JsonNode doc = JSON.readTree(ResultDocument.build(plan, List.of(List.of(unfinished))));
        assertThat(doc.has("comparison")).isFalse();
        assertThat(doc.path("variants").get(0).has("runs")).isFalse();
        assertThat(doc.path("variants").get(0).path("workloads").get(0).path("completionUs").isNull()).isTrue();
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
