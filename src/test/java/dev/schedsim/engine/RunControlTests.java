package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.bench.BenchSpecs;
import dev.schedsim.engine.api.BudgetExceededException;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunCancelledException;
import dev.schedsim.engine.api.RunControl;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Progress, cancellation and the event budget (docs/api.md, "Limits": {@code budget-exceeded}). */
class RunControlTests {
    @Test
    void progressReportsIncreasingSimulatedTime() {
        List<Long> seen = new ArrayList<>();
        Report r = Engine.run(BenchSpecs.mixed64(300_000), 1, Long.MAX_VALUE, new RunControl() {
            @Override
            public boolean cancelled() {
                return false;
            }

            @Override
            public void progress(long simulatedUs, long events) {
                seen.add(simulatedUs);
            }
        });
        assertTrue(seen.size() > 3, "progress is reported during the run");
        for (int i = 1; i < seen.size(); i++) {
            assertTrue(seen.get(i) >= seen.get(i - 1));
        }
        assertTrue(seen.get(seen.size() - 1) <= r.simulatedUs());
    }

    @Test
    void cancellationStopsTheRun() {
        int[] calls = {0};
        assertThrows(RunCancelledException.class, () -> Engine.run(BenchSpecs.mixed64(10_000_000), 1,
                Long.MAX_VALUE, new RunControl() {
                    @Override
                    public boolean cancelled() {
                        return ++calls[0] >= 2;
                    }

                    @Override
                    public void progress(long simulatedUs, long events) {
                    }
                }));
        assertEquals(2, calls[0], "stopped at the second check, not at the end");
    }

    @Test
    void theEventBudgetIsEnforced() {
        BudgetExceededException e = assertThrows(BudgetExceededException.class,
                () -> Engine.run(BenchSpecs.mixed64(1_000_000), 1, 10_000, RunControl.NONE));
        assertEquals(10_000, e.budget());
    }
}
