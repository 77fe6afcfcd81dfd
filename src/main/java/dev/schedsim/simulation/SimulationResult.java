package dev.schedsim.simulation;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import org.springframework.data.domain.Persistable;

/**
 * A SUCCEEDED simulation's result document, in a row of its own that is written once, in the transaction that
 * marks the simulation SUCCEEDED, and never updated: the simulation row, which progress updates rewrite, stays
 * small (V3__documents_apart.sql says why that matters to H2).
 */
@Entity
@Table(name = "simulation_result")
public class SimulationResult implements Persistable<String> {
    @Id
    @Column(name = "simulation_id")
    private String simulationId;
    @Column(name = "result_json")
    private String resultJson;
    /** Only ever inserted new: a plain insert, no select first. */
    @Transient
    private boolean fresh;

    protected SimulationResult() {
    }

    SimulationResult(String simulationId, String resultJson) {
        this.simulationId = simulationId;
        this.resultJson = resultJson;
        this.fresh = true;
    }

    @Override
    public String getId() {
        return simulationId;
    }

    @Override
    public boolean isNew() {
        return fresh;
    }

    public String getResultJson() {
        return resultJson;
    }
}
