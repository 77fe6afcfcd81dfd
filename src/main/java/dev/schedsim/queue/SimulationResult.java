package dev.schedsim.queue;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A SUCCEEDED simulation's result document, in a row of its own that is written once, in the transaction that
 * marks the simulation SUCCEEDED, and never updated: the simulation row, which progress updates rewrite, stays
 * small (V3__documents_apart.sql says why that matters to H2).
 */
@Entity
@Table(name = "simulation_result")
public class SimulationResult extends InsertedOnce {
    @Id
    @Column(name = "simulation_id")
    private String simulationId;
    @Column(name = "result_json")
    private String resultJson;
    protected SimulationResult() {
    }

    SimulationResult(String simulationId, String resultJson) {
        this.simulationId = simulationId;
        this.resultJson = resultJson;
    }

    @Override
    public String getId() {
        return simulationId;
    }
}
