package dev.schedsim.queue;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A job's plan as stored (migration V8): written once with the job, in a table of its own that no update
 * touches (the reason of V3), and deleted with it.
 */
@Entity
@Table(name = "simulation_plan")
public class StoredPlan {
    @Id
    @Column(name = "simulation_id")
    private String simulationId;
    @Column(name = "plan_json")
    private String planJson;

    protected StoredPlan() {
    }

    StoredPlan(String simulationId, String planJson) {
        this.simulationId = simulationId;
        this.planJson = planJson;
    }

    String getPlanJson() {
        return planJson;
    }
}
