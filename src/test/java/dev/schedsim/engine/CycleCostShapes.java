package dev.schedsim.engine;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.RunClock;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The model's CPU a cycle of periodic thread-clock threads (latbench's {@code clock=thread}, 4 KiB) alone, two on a
 * CPU, one or two on each CPU, and free, with one data set's host costs: the model's side of the latbench runs in
 * docs/latency-validation.md, "The knife edges as curves". Runs only when asked:
 * {@code ./mvnw test -Dtest=CycleCostShapes -Dshapes=latency-cases-2026-12-06e.json [-Dshapes.run=1000]
 * [-Dshapes.sleep=4000] [-Dshapes.quota=-1 (an unlimited child group) | QUOTA_US]}.
 */
class CycleCostShapes {
    /** Each placement's run: latbench's 5 s. */
    private static final long DURATION_US = 5_000_000;

    @Test
    @EnabledIfSystemProperty(named = "shapes", matches = ".+")
    void print() throws Exception {
        JsonNode hw;
        try (InputStream in = getClass().getResourceAsStream("/validation/" + System.getProperty("shapes"))) {
            hw = new ObjectMapper().readTree(in).get("hardware");
        }
        long run = Long.getLong("shapes.run", 1000), sleep = Long.getLong("shapes.sleep", 4000);
        long quota = Long.getLong("shapes.quota", 0);
        String cg = quota == 0 ? "/" : "/parent/child";
        List<CgroupSpec> cgs = quota == 0 ? List.of() : List.of(CgroupSpec.unlimited("/parent", 100),
                quota < 0 ? CgroupSpec.unlimited("/parent/child", 100)
                        : new CgroupSpec("/parent/child", quota, 100000, 0, 100));
        int[][][] shapes = {{{1, 0}}, {{2, 0}}, {{1, 0}, {1, 1}}, {{2, 0}, {2, 1}}, {{4, -1}}, {{1, -1}}, {{2, -1}}};
        for (int[][] shape : shapes) {
            List<WorkloadSpec> w = new ArrayList<>();
            for (int i = 0; i < shape.length; i++) {
                WorkloadSpec s = WorkloadSpec.periodic("g" + i, cg, shape[i][0], run, sleep)
                        .withRunClock(RunClock.THREAD_CPU)
                        .withFootprintKb(LatencyValidationTests.HARNESS_FOOTPRINT_KB);
                if (shape[i][1] >= 0) {
                    s = s.withCpus(new int[] {shape[i][1]});
                }
                w.add(s);
            }
            EngineSpec spec = Specs.spec(LatencyValidationTests.machine(hw),
                    Specs.kernel("6.18", 250, LatencyValidationTests.kernelFeatures(hw)), cgs, w, DURATION_US);
            double cpu = 0, cycles = 0;
            for (long seed = 1; seed <= 3; seed++) {
                Report r = Specs.run(spec, seed);
                for (Report.WorkloadReport x : r.workloads()) {
                    cpu += x.cpuUsec();
                    cycles += x.throughputPerSec() * DURATION_US / 1e6;
                }
            }
            StringBuilder name = new StringBuilder();
            for (int[] g : shape) {
                name.append(g[0]).append(g[1] < 0 ? "@any " : "@cpu" + g[1] + " ");
            }
            System.out.printf("SHAPE %-16s cpu/cycle %.1f us%n", name, cpu / cycles);
        }
    }
}
