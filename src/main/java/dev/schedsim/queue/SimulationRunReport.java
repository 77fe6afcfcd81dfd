package dev.schedsim.queue;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The engine report of a run that succeeded, stored so that whichever worker finishes a simulation's last run
 * builds the result document from all of them. Written once, with the run's finish, and never updated: the run
 * row, which heartbeats rewrite, stays small (V3__documents_apart.sql says why that matters to H2).
 */
@Entity
@Table(name = "simulation_run_report")
public class SimulationRunReport extends InsertedOnce {
    @Id
    @Column(name = "run_id")
    private String runId;
    @Column(name = "simulation_id")
    private String simulationId;
    @Column(name = "run_index")
    private int runIndex;
    @Column(name = "report_json")
    private String reportJson;
    protected SimulationRunReport() {
    }

    SimulationRunReport(String simulationId, int runIndex, String reportJson) {
        this.runId = SimulationRun.id(simulationId, runIndex);
        this.simulationId = simulationId;
        this.runIndex = runIndex;
        this.reportJson = reportJson;
    }

    @Override
    public String getId() {
        return runId;
    }

    public String getSimulationId() {
        return simulationId;
    }

    public int getRunIndex() {
        return runIndex;
    }

    public String getReportJson() {
        return reportJson;
    }
}
