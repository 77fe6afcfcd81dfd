package dev.schedsim.queue;

import dev.schedsim.request.SimulationPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * The plan of each job: stored with it at submission, read back by the claim (so a worker runs what was
 * accepted, never the request planned again) and by the report, trace and metrics pages.
 */
@Component
public class SimulationPlans {
    /** Plans are immutable once stored: the recently read ones by simulation id, decoded once. */
    private final Map<String, SimulationPlan> recent = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SimulationPlan> eldest) {
            return size() > 64;
        }
    };
    private final StoredPlans rows;
    private final SimulationJobs jobs;
    private final SimulationPlanner planner;

    SimulationPlans(StoredPlans rows, SimulationJobs jobs, SimulationPlanner planner) {
        this.rows = rows;
        this.jobs = jobs;
        this.planner = planner;
    }

    /**
     * A plan as it will be stored; a 422 naming the size when even compressed it does not fit its column (checked
     * before anything of the submission is written).
     */
    static String encoded(SimulationPlan plan) {
        String stored = StoredPlan.encode(plan.toJson());
        if (stored.length() > StoredPlan.COLUMN_CHARS) {
            throw new dev.schedsim.http.LimitExceededException(List.of(new dev.schedsim.http.LimitExceededException
                    .Exceeded("the stored plan's size (every variant's workloads, compressed), characters",
                            StoredPlan.COLUMN_CHARS, stored.length(), "variants")));
        }
        return stored;
    }

    /** Stores a new job's plan, {@link #encoded} (in the caller's transaction, the one that inserts the job). */
    void save(String simulationId, SimulationPlan plan, String encoded) {
        rows.save(new StoredPlan(simulationId, encoded));
        remember(simulationId, plan);
    }

    /** The plan of a job. */
    public SimulationPlan of(SimulationJob job) {
        return of(job.getId(), job::getRequestJson);
    }

    /** The plan of simulation {@code id} (which exists). */
    SimulationPlan of(String id) {
        return of(id, () -> jobs.findRequestJson(id));
    }

    /**
     * The plan of simulation {@code id}: as stored; for a job submitted before plans were stored (no row), its
     * accepted request planned by today's rules.
     */
    private SimulationPlan of(String id, Supplier<String> requestJson) {
        synchronized (recent) {
            SimulationPlan p = recent.get(id);
            if (p != null) {
                return p;
            }
        }
        Optional<StoredPlan> row = rows.findById(id);
        SimulationPlan p = row.isPresent() ? SimulationPlan.fromJson(row.get().getPlanJson())
                : planner.plan(requestJson.get());
        remember(id, p);
        return p;
    }

    private void remember(String id, SimulationPlan plan) {
        synchronized (recent) {
            recent.put(id, plan);
        }
    }
}
