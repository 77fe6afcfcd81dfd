package dev.schedsim.queue;

import dev.schedsim.request.SimulationPlan;

/**
 * Plans an accepted request document from its JSON. A job carries its plan from its submission on
 * ({@link SimulationPlans}); this is for what has no stored plan: the warm-up's rehearsal requests, and jobs
 * submitted before plans were stored (migration V8). Implemented where requests are validated
 * ({@code simulations}), so that the queue does not depend on the request rules.
 */
public interface SimulationPlanner {
    SimulationPlan plan(String acceptedRequestJson);
}
