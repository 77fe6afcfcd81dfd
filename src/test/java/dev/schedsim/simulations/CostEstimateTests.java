package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.LimitExceededException;
import dev.schedsim.json.Json;
import dev.schedsim.request.CostEstimate;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.request.SimulationRequest;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The cost estimate against real runs: for random valid requests of every workload type (the generator of
 * {@link AcceptedRequestsRunTests}) no run goes beyond the event budget its estimate gives it (so a request the
 * service accepts is not stopped for being what it said), and no stored report is larger than its estimated
 * size (so the size refused at admission is never one that would have fit).
 */
class CostEstimateTests {
    private static final long SEED = 0xc057L;
    private static final int REQUESTS = 150;
    /** Below this many events a run is all start-up (its first ticks and wakeups): no rate to compare. */
    private static final double SMALL = 20_000;

    @Test
    void everyRunStaysWithinTheBudgetAndTheSizeItsEstimateGives() {
        AcceptedRequestsRunTests generator = new AcceptedRequestsRunTests();
        SplittableRandom random = new SplittableRandom(SEED);
        int ran = 0;
        double worst = 0;
        double worstBytes = 0;
        for (int i = 0; i < REQUESTS; i++) {
            // (the generator's runs are 1-40 ms; rates show over longer ones)
            String json = generator.request(random).put("durationMs", 100 + random.nextInt(400)).toString();
            SimulationPlan plan;
            try {
                plan = generator.validator.accept(generator.reader.read(json, SimulationRequest.class)).plan();
            } catch (InvalidRequestException | LimitExceededException e) {
                continue;
            }
            for (SimulationPlan.Variant v : plan.variants()) {
                double estimate = CostEstimate.events(v.spec());
                Report report = Engine.run(v.spec(), plan.seed(), Long.MAX_VALUE, RunControl.NONE);
                long bytes = Json.STORED.writeValueAsString(report).length();
                assertThat(report.events()).as("request %d, %s: estimate %.0f", i, json, estimate)
                        .isLessThanOrEqualTo((long) (CostEstimate.BUDGET_FACTOR * Math.max(SMALL, estimate)));
                assertThat(bytes).as("request %d, %s", i, json).isLessThanOrEqualTo(CostEstimate.reportBytes(
                        v.spec()));
                worst = Math.max(worst, report.events() / Math.max(SMALL, estimate));
                if (report.events() > 10 * SMALL) {
                    // Nor far above: an estimate 20 times too high would refuse requests that cost little.
                    assertThat(report.events()).as("request %d, %s: estimate %.0f", i, json, estimate)
                            .isGreaterThanOrEqualTo((long) (estimate / CostEstimate.BUDGET_FACTOR));
                }
                worstBytes = Math.max(worstBytes, (double) bytes / CostEstimate.reportBytes(v.spec()));
                ran++;
            }
        }
        System.out.printf("cost estimate: %d runs, events at most %.2f x the estimate, bytes at most %.2f x%n", ran,
                worst, worstBytes);
        assertThat(ran).isGreaterThan(REQUESTS / 2);
    }

    /**
     * Warm-up runs are paid for: the estimate of a request with two warm-up runs is three runs' (so the budget and
     * the submission limit see them), and the run, warm-up included, stays within the budget its plan gives it.
     */
    @Test
    void warmupRunsAreInTheEstimateAndTheBudget() {
        AcceptedRequestsRunTests generator = new AcceptedRequestsRunTests();
        String plain = """
                {"topology": {"preset": "validation-2c"}, "cgroups": [{"path": "/a", "cpuMax": "50000 100000"}],
                 "workloads": [{"name": "w", "cgroup": "/a", "type": "periodic", "threads": 3, "runUs": 800,
                                "sleepUs": 1200}], "durationMs": 300}""";
        String warm = plain.replace("\"durationMs\"", "\"warmup\": {\"runs\": 2, \"gapMs\": 100}, \"durationMs\"");
        SimulationPlan p = generator.validator.accept(generator.reader.read(plain, SimulationRequest.class)).plan();
        SimulationPlan w = generator.validator.accept(generator.reader.read(warm, SimulationRequest.class)).plan();
        double once = CostEstimate.events(p.variants().get(0).spec());
        assertThat(CostEstimate.events(w.variants().get(0).spec())).isEqualTo(3 * once);
        Report report = Engine.run(w.variants().get(0).spec(), w.seed(), w.eventBudget(), RunControl.NONE);
        assertThat(report.simulatedUs()).isEqualTo(300_000);
    }
}
