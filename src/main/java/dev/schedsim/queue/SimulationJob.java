package dev.schedsim.queue;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One submitted simulation: the row is the truth of the queue. State changes go through conditional updates in
 * {@link SimulationJobs} so that several workers (and instances) never both own a row. Its result document is a
 * {@link SimulationResult} of its own, written once (this row changes while the simulation runs; see
 * V3__documents_apart.sql).
 */
@Entity
@Table(name = "simulation")
public class SimulationJob {
    @Id
    private String id;
    private String name;
    @Enumerated(EnumType.STRING)
    private SimulationStatus status;
    @Column(name = "created_at")
    private Instant createdAt;
    @Column(name = "started_at")
    private Instant startedAt;
    @Column(name = "finished_at")
    private Instant finishedAt;
    private double progress;
    @Column(name = "request_json")
    private String requestJson;
    @Column(name = "error_json")
    private String errorJson;
    @Column(name = "idempotency_key")
    private String idempotencyKey;
    @Column(name = "request_hash")
    private String requestHash;
    @Column(name = "worker_id")
    private String workerId;
    @Column(name = "heartbeat_at")
    private Instant heartbeatAt;
    private long events;
    /** The API key name that submitted it; null when security was off (then admin keys only see it). */
    private String owner;

    protected SimulationJob() {
    }

    /** A detached copy of {@code j} as its cancel left it: what a client is told when the row is gone since. */
    static SimulationJob cancelledCopy(SimulationJob j, Instant now) {
        SimulationJob c = new SimulationJob(j.id, j.name, j.createdAt, j.requestJson, j.requestHash, j.idempotencyKey,
                j.owner);
        c.status = SimulationStatus.CANCELLED;
        c.startedAt = j.startedAt;
        c.finishedAt = now;
        c.progress = j.progress;
        c.events = j.events;
        return c;
    }

    public SimulationJob(String id, String name, Instant createdAt, String requestJson, String requestHash,
                         String idempotencyKey) {
        this(id, name, createdAt, requestJson, requestHash, idempotencyKey, null);
    }

    public SimulationJob(String id, String name, Instant createdAt, String requestJson, String requestHash,
                         String idempotencyKey, String owner) {
        this.owner = owner;
        this.id = id;
        this.name = name;
        this.status = SimulationStatus.QUEUED;
        this.createdAt = createdAt;
        this.requestJson = requestJson;
        this.requestHash = requestHash;
        this.idempotencyKey = idempotencyKey;
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

    public Instant getStartedAt() {
        return startedAt;
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

    public String getErrorJson() {
        return errorJson;
    }

    public String getRequestHash() {
        return requestHash;
    }

    public String getWorkerId() {
        return workerId;
    }

    public Instant getHeartbeatAt() {
        return heartbeatAt;
    }

    public long getEvents() {
        return events;
    }

    public String getOwner() {
        return owner;
    }

    /** The simulation label of result metrics: the name, or the id when unnamed. */
    public String label() {
        return name != null ? name : id;
    }
}
