package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.schedsim.engine.api.BudgetExceededException;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs on several threads give the same reports as the same runs one after another, in the runs' order. */
class EngineRunsTests {
    /** Two variants (6.1 and 6.18) × three seeds of a limited group with periodic and CPU-bound threads. */
    private static List<EngineRuns.Run> runs() {
        List<EngineRuns.Run> out = new ArrayList<>();
        for (String kernel : List.of("6.1", "6.18")) {
            EngineSpec spec = Specs.spec(Specs.preset("desktop-8c-smt2"), Specs.kernel(kernel),
                    List.of(new CgroupSpec("/a", 300_000, 100_000, 0, 100)),
                    List.of(WorkloadSpec.cpuBound("spin", "/a", 6, 0), WorkloadSpec.periodic("tick", "/", 10, 500,
                            1_500, 20)), 300_000);
            for (long seed = 1; seed <= 3; seed++) {
                out.add(new EngineRuns.Run(spec, seed));
            }
        }
        return out;
    }

    @Test
    void parallelRunsGiveTheSequentialReportsInOrder() {
        List<EngineRuns.Run> runs = runs();
        List<String> sequential = new ArrayList<>();
        for (EngineRuns.Run r : runs) {
            sequential.add(Json.STORED.writeValueAsString(Engine.run(r.spec(), r.seed(), Long.MAX_VALUE,
                    RunControl.NONE)));
        }
        for (int threads : new int[] {1, 2, 4}) {
            List<Report> parallel = EngineRuns.runAll(runs, threads, Long.MAX_VALUE);
            assertEquals(runs.size(), parallel.size());
            for (int i = 0; i < runs.size(); i++) {
                assertEquals(sequential.get(i), Json.STORED.writeValueAsString(parallel.get(i)),
                        "run " + i + " on " + threads + " threads");
            }
        }
    }

    @Test
    void aFailedRunIsThrown() {
        List<EngineRuns.Run> runs = runs();
        assertThrows(BudgetExceededException.class, () -> EngineRuns.runAll(runs, 2, 1));
    }
}
