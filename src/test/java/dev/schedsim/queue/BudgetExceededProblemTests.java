package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.request.CostEstimate;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.simulations.StandalonePlans;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The error of a run stopped at its event budget says which budget it was: 20 times the run's estimate (the
 * estimate was wrong by far), or schedsim.limits.max-events (the most any run may process).
 */
class BudgetExceededProblemTests {
    private static final SimulationPlan.Variant VARIANT = StandalonePlans.plan("""
            { "topology": { "preset": "validation-2c" },
              "workloads": [ { "name": "w", "type": "periodic", "threads": 2, "runUs": 100, "sleepUs": 900 } ],
              "durationMs": 60000 }""").variants().get(0);

    @Test
    void theEstimatesBudgetNamesTheEstimate() {
        double estimate = CostEstimate.events(VARIANT.spec());
        long budget = CostEstimate.budget(estimate, Long.MAX_VALUE);
        ObjectNode p = Problems.budgetExceeded(budget, VARIANT);
        assertThat(p.path("estimatedEvents").asLong()).isEqualTo((long) estimate).isPositive();
        assertThat(p.path("value").asLong()).isEqualTo(budget);
        assertThat(p.has("limit")).isFalse();
        assertThat(p.path("detail").asString()).contains("stopped after " + budget + " engine events")
                .contains("20 times the").contains("estimated at when admitted").doesNotContain("max-events");
    }

    @Test
    void aBudgetCappedByMaxEventsNamesTheLimit() {
        ObjectNode p = Problems.budgetExceeded(1_000, VARIANT);
        assertThat(p.path("limit").asString()).isEqualTo("schedsim.limits.max-events");
        assertThat(p.path("detail").asString()).contains("schedsim.limits.max-events").doesNotContain("20 times");
    }
}
