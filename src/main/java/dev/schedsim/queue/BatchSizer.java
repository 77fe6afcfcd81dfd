package dev.schedsim.queue;

import dev.schedsim.SchedsimProperties;
import dev.schedsim.request.SimulationPlan;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * How many runs a worker claims at once ({@link SimulationQueue.BatchSize}): within the first run's variant, as
 * many as fit in {@code schedsim.claim-batch} by that variant's previous run on this instance; one while it has
 * none. (Repetitions of a variant differ only in their seed; variants may differ in anything.)
 */
@Component
class BatchSizer implements SimulationQueue.BatchSize {
    private final SchedsimProperties properties;
    /** The last run time (ns) of each variant run here, by "simulation#variant". */
    private final ConcurrentHashMap<String, Long> runTime = new ConcurrentHashMap<>();

    BatchSizer(SchedsimProperties properties) {
        this.properties = properties;
    }

    @Override
    public int runs(String simulationId, SimulationPlan plan, int first) {
        long budget = properties.claimBatch().toNanos();
        if (budget <= 0) {
            return 1;
        }
        int v = first / plan.repetitions();
        Long last = runTime.get(simulationId + "#" + v);
        if (last == null) {
            return 1;
        }
        int left = (v + 1) * plan.repetitions() - first;
        return (int) Math.max(1, Math.min(left, budget / Math.max(1, last)));
    }

    /** Notes how long a run of a variant took here (engine and report). */
    void ran(String simulationId, int variant, long nanos) {
        if (runTime.size() >= 4096) {
            runTime.clear(); // (entries of simulations that ended: at worst one batch of one run too many)
        }
        runTime.put(simulationId + "#" + variant, nanos);
    }
}
