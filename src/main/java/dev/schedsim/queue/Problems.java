package dev.schedsim.queue;

import dev.schedsim.json.Json;
import dev.schedsim.request.CostEstimate;
import dev.schedsim.request.SimulationPlan;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The problem documents (RFC 9457) stored as a failed simulation's {@code error}. */
final class Problems {
    static final String PROBLEM_BASE = "https://schedsim.dev/problems/";

    private Problems() {
    }

    static String json(String type, String title, int status, String detail) {
        return Json.STORED.writeValueAsString(problem(type, title, status, detail));
    }

    static String json(ObjectNode problem) {
        return Json.STORED.writeValueAsString(problem);
    }

    /**
     * A run stopped at its event budget: what it was estimated at and why that is its end, so that the client
     * knows the request cost far more than it was admitted for (the estimate, not the service, was wrong).
     */
    static ObjectNode budgetExceeded(long budget, SimulationPlan.Variant variant) {
        double estimate = CostEstimate.events(variant.spec());
        // The budget is the estimate's unless max-events capped it (CostEstimate.budget).
        boolean capped = budget < CostEstimate.budget(estimate, Long.MAX_VALUE);
        String why = capped ? "schedsim.limits.max-events, the most any run may process"
                : CostEstimate.BUDGET_FACTOR + " times the " + String.format(java.util.Locale.ROOT, "%.3g", estimate)
                        + " events it was estimated at when admitted (at least " + CostEstimate.BUDGET_FLOOR + ")";
        ObjectNode n = problem("budget-exceeded", "Event budget exceeded", 422, "the run was stopped after "
                + budget + " engine events, its budget: " + why + "; simulate less time, fewer threads, longer "
                + "runUs/sleepUs cycles or a smaller machine");
        if (capped) {
            n.put("limit", "schedsim.limits.max-events");
        }
        n.put("value", budget);
        n.put("estimatedEvents", (long) Math.min(estimate, Long.MAX_VALUE));
        return n;
    }

    static ObjectNode problem(String type, String title, int status, String detail) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("type", PROBLEM_BASE + type);
        n.put("title", title);
        n.put("status", status);
        n.put("detail", detail);
        return n;
    }
}
