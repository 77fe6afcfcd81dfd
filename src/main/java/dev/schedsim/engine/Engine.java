package dev.schedsim.engine;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.core.Simulation;
import dev.schedsim.engine.spec.SchedDomainView;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.topology.Topology;
import java.util.List;

/**
 * The engine's entry point: a validated spec and a seed in, a report out. Deterministic: the same spec
 * and seed give an identical report on any machine. Pure Java: no Spring, no I/O, no wall clock.
 */
public final class Engine {
    private Engine() {
    }

    /**
     * Runs one simulation.
     *
     * @param spec        the validated simulation
     * @param seed        the seed of the run's only random generator
     * @param eventBudget the most events the run may process ({@link BudgetExceededException} beyond it)
     * @param control     progress and cancellation hook
     * @return the report
     */
    public static Report run(EngineSpec spec, long seed, long eventBudget, RunControl control) {
        return new Simulation(spec, seed, eventBudget, control).run();
    }

    /** The scheduling-domain levels the kernel would build for a machine, lowest first. */
    public static List<SchedDomainView> schedDomains(TopologySpec topology) {
        return new Topology(topology).levelViews();
    }
}
