package dev.schedsim.simulation;

import dev.schedsim.engine.EngineSpec;
import java.util.List;
import java.util.Map;

/**
 * What a worker runs for one job: each variant's engine spec, run {@code repetitions} times with seeds
 * {@code seed, seed + 1, …}.
 *
 * @param seed        the first seed
 * @param repetitions runs per variant (≥ 1)
 * @param eventBudget the event budget of each run
 * @param variants    the variants, baseline first
 * @param cgroupLabels per cgroup path, the labels its cAdvisor series carry besides {@code id} (a pod's
 *                     namespace, pod and container); empty for cgroups written by hand
 */
public record SimulationPlan(long seed, int repetitions, long eventBudget, List<Variant> variants,
                             Map<String, Map<String, String>> cgroupLabels) {

    /** One variant: its label and the spec all its repetitions run. */
    public record Variant(String label, EngineSpec spec) {
    }

    public SimulationPlan(long seed, int repetitions, long eventBudget, List<Variant> variants) {
        this(seed, repetitions, eventBudget, variants, Map.of());
    }

    public SimulationPlan {
        variants = List.copyOf(variants);
        cgroupLabels = Map.copyOf(cgroupLabels);
        if (repetitions < 1 || variants.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one variant and one repetition");
        }
    }

    /** Engine runs in total. */
    public int runs() {
        return repetitions * variants.size();
    }
}
