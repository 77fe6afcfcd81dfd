package dev.schedsim.queue;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One engine run of a simulation (variant × repetition, in plan order: run {@code i} is variant
 * {@code i / repetitions}, seed {@code seed + i % repetitions}). Runs are what workers claim; like the
 * simulation row, every state change is a conditional update in {@link SimulationRuns}.
 */
@Entity
@Table(name = "simulation_run")
public class SimulationRun extends InsertedOnce {
    @Id
    private String id;
    @Column(name = "simulation_id")
    private String simulationId;
    @Column(name = "run_index")
    private int runIndex;
    @Enumerated(EnumType.STRING)
    private SimulationStatus status;
    @Column(name = "created_at")
    private Instant createdAt;
    @Column(name = "started_at")
    private Instant startedAt;
    @Column(name = "finished_at")
    private Instant finishedAt;
    @Column(name = "worker_id")
    private String workerId;
    @Column(name = "heartbeat_at")
    private Instant heartbeatAt;
    private int attempts;
    private double progress;
    private long events;
    @Column(name = "simulated_us")
    private long simulatedUs;
    /** Its variant's CostEstimate, written when queued (a client's queued work); null before V9. */
    @Column(name = "estimated_events")
    private Long estimatedEvents;

    protected SimulationRun() {
    }

    SimulationRun(String simulationId, int runIndex, Instant createdAt) {
        this(simulationId, runIndex, createdAt, null);
    }

    SimulationRun(String simulationId, int runIndex, Instant createdAt, Long estimatedEvents) {
        this.estimatedEvents = estimatedEvents;
        this.id = id(simulationId, runIndex);
        this.simulationId = simulationId;
        this.runIndex = runIndex;
        this.status = SimulationStatus.QUEUED;
        this.createdAt = createdAt;
    }

    static String id(String simulationId, int runIndex) {
        return simulationId + "/" + runIndex;
    }

    @Override
    public String getId() {
        return id;
    }

    public String getSimulationId() {
        return simulationId;
    }

    public int getRunIndex() {
        return runIndex;
    }

    public SimulationStatus getStatus() {
        return status;
    }

    public Instant getStartedAt() {
        return startedAt;
    }

    public Instant getFinishedAt() {
        return finishedAt;
    }

    public String getWorkerId() {
        return workerId;
    }

    public Instant getHeartbeatAt() {
        return heartbeatAt;
    }

    public int getAttempts() {
        return attempts;
    }

    public double getProgress() {
        return progress;
    }

    public long getEvents() {
        return events;
    }
}
