package dev.schedsim.simulation;

import dev.schedsim.engine.EngineSpec;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunControl;

/**
 * The engine as the workers see it: {@link dev.schedsim.engine.Engine#run} in production. A seam so that the
 * service's own tests (queue, cancellation, recovery, metrics) can run against a stand-in.
 */
@FunctionalInterface
public interface SimulationEngine {
    Report run(EngineSpec spec, long seed, long eventBudget, RunControl control);
}
