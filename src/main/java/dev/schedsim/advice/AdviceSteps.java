package dev.schedsim.advice;

import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.result.ResultDocument;
import java.util.List;

/**
 * How the advisor runs a step: one simulation of the request with a variant per setting (and, in the first step,
 * the request as it is, labelled {@link #CURRENT}), submitted through the ordinary submission path so that its runs
 * share the queue, the workers and the instances with everything else. Implemented by the API layer.
 */
public interface AdviceSteps {
    /** The variant label of the request's own setting. */
    String CURRENT = "current";
    /** The first step's variant of the sized cgroup without a limit. */
    String UNLIMITED = "unlimited";

    /**
     * Submits a step's simulation; the key makes a repeated submission (another instance, a retry after a lost
     * answer) return the same simulation.
     *
     * @param owner the client that asked for the advice (it owns the step's simulation; null with security off)
     * @return the simulation's id, or null when the queue or the client's limits are full now (the next poll tries
     *         again)
     */
    String submit(AdviceSpec spec, List<AdviceSearch.Setting> settings, boolean withCurrent, String name, String key,
                  String owner);

    /** A step's simulation as it stands: null when it is gone (deleted). */
    Step poll(String simulationId);

    /** Cancels a step's simulation (nothing when it already ended). */
    void cancel(String simulationId);

    /** A step's simulation: its status, progress, result document once SUCCEEDED, error once FAILED. */
    record Step(SimulationStatus status, double progress, ResultDocument result, String errorJson) {
    }
}
