package dev.schedsim.simulation;

/**
 * Turns an accepted request document (as stored on the job) into the plan the workers run. Implemented by the
 * API layer, which owns the request format; this keeps the dependency pointing from {@code api} to
 * {@code simulation}.
 */
public interface SimulationPlanner {
    SimulationPlan plan(String acceptedRequestJson);
}
