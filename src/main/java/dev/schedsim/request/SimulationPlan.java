package dev.schedsim.request;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.json.Json;
import java.util.List;
import java.util.Map;

/**
 * What a worker runs for one job: each variant's engine spec, run {@code repetitions} times with seeds
 * {@code seed, seed + 1, …}. Made once, when the request is accepted, and stored with the job
 * ({@link #toJson()}); the claim of a run carries it, so no worker, report or trace reads the request again.
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

    /**
     * The version of the stored form. Raise it when a stored plan would no longer read as the same runs (an
     * engine spec field renamed or given another meaning), and teach {@link #fromJson} the old one: plans stay
     * in the database for as long as their simulations do.
     */
    public static final int VERSION = 1;

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

    /** The engine events each run of variant {@code variant} is estimated to process ({@link CostEstimate}). */
    public long estimatedEvents(int variant) {
        return (long) Math.min(CostEstimate.events(variants.get(variant).spec()), Long.MAX_VALUE);
    }

    /** The estimated engine events of all its runs: the work it queues (per-client budgets count it). */
    public long estimatedEvents() {
        double events = 0;
        for (int v = 0; v < variants.size(); v++) {
            events += (double) estimatedEvents(v) * repetitions;
        }
        return (long) Math.min(events, Long.MAX_VALUE);
    }

    /** The stored form: the plan with its {@link #VERSION}. */
    public String toJson() {
        return Json.PLAN.writeValueAsString(new Stored(VERSION, seed, repetitions, eventBudget, variants,
                cgroupLabels));
    }

    /** A plan as {@link #toJson()} stored it; an unknown version is refused rather than run differently. */
    public static SimulationPlan fromJson(String json) {
        Stored s = Json.PLAN.readValue(json, Stored.class);
        if (s.version() != VERSION) {
            throw new IllegalStateException("stored plan version " + s.version() + " is not " + VERSION
                    + ", the one this build reads");
        }
        return new SimulationPlan(s.seed(), s.repetitions(), s.eventBudget(), s.variants(),
                s.cgroupLabels() == null ? Map.of() : s.cgroupLabels());
    }

    private record Stored(int version, long seed, int repetitions, long eventBudget, List<Variant> variants,
                          Map<String, Map<String, String>> cgroupLabels) {
    }
}
