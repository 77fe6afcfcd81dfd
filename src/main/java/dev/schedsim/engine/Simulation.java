package dev.schedsim.engine;

/** One run of the model (being written). */
final class Simulation {
    Simulation(EngineSpec spec, long seed, long eventBudget, RunControl control) {
    }

    Report run() {
        throw new UnsupportedOperationException("engine core not yet landed");
    }
}
