package dev.schedsim.simulation;

import dev.schedsim.engine.EngineSpec;
import java.util.List;

/**
 * What a worker runs for one job: each variant's engine spec, run {@code repetitions} times with seeds
 * {@code seed, seed + 1, …}.
 *
 * @param seed        the first seed
 * @param repetitions runs per variant (≥ 1)
 * @param eventBudget the event budget of each run
 * @param variants    the variants, baseline first
 */
public record SimulationPlan(long seed, int repetitions, long eventBudget, List<Variant> variants) {

    /** One variant: its label and the spec all its repetitions run. */
    public record Variant(String label, EngineSpec spec) {
    }

    public SimulationPlan {
        variants = List.copyOf(variants);
        if (repetitions < 1 || variants.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one variant and one repetition");
        }
    }

    /** Engine runs in total. */
    public int runs() {
        return repetitions * variants.size();
    }
}
