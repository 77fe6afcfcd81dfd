package dev.schedsim.advice;

import dev.schedsim.queue.SimulationStatus;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;

/**
 * One advice: the accepted advice request, the search's state between steps ({@link AdviceSearch.State} as JSON),
 * the simulation of the step in hand, and the answer once the search is over. {@link AdviceDriver} owns every
 * change after the submission; {@code version} keeps two instances from both advancing one step.
 */
@Entity
@Table(name = "advice")
public class Advice {
    @Id
    private String id;
    private String name;
    @Enumerated(EnumType.STRING)
    private SimulationStatus status;
    @Column(name = "created_at")
    private Instant createdAt;
    @Column(name = "finished_at")
    private Instant finishedAt;
    private double progress;
    @Column(name = "request_json")
    private String requestJson;
    @Column(name = "state_json")
    private String stateJson;
    @Column(name = "answer_json")
    private String answerJson;
    @Column(name = "error_json")
    private String errorJson;
    @Column(name = "simulation_id")
    private String simulationId;
    /** The client that asked for it (null with security off); its steps' simulations are that client's too. */
    private String owner;
    @Version
    private long version;

    protected Advice() {
    }

    public Advice(String id, String name, Instant createdAt, String requestJson, String stateJson, String owner) {
        this.owner = owner;
        this.id = id;
        this.name = name;
        this.createdAt = createdAt;
        this.requestJson = requestJson;
        this.stateJson = stateJson;
        this.status = SimulationStatus.RUNNING;
    }

    public String getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public SimulationStatus getStatus() {
        return status;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getFinishedAt() {
        return finishedAt;
    }

    public double getProgress() {
        return progress;
    }

    public String getRequestJson() {
        return requestJson;
    }

    public String getStateJson() {
        return stateJson;
    }

    public String getAnswerJson() {
        return answerJson;
    }

    public String getErrorJson() {
        return errorJson;
    }

    public String getOwner() {
        return owner;
    }

    public String getSimulationId() {
        return simulationId;
    }

    void step(String stateJson, String simulationId, double progress) {
        this.stateJson = stateJson;
        this.simulationId = simulationId;
        this.progress = progress;
    }

    void progress(double progress) {
        this.progress = progress;
    }

    void finish(SimulationStatus status, String answerJson, String errorJson, Instant now) {
        this.status = status;
        this.answerJson = answerJson;
        this.errorJson = errorJson;
        this.finishedAt = now;
        if (status == SimulationStatus.SUCCEEDED) {
            this.progress = 1;
        }
    }
}
