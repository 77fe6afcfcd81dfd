package dev.schedsim.simulation;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The job queue, kept in the database: submission, claiming (row lock with SKIP LOCKED, then a conditional
 * update, so several instances can share one database), cancellation and removal.
 */
@Component
public class SimulationQueue {
    private static final Logger log = LoggerFactory.getLogger(SimulationQueue.class);

    private final SimulationJobs simulations;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final SchedsimProperties properties;
    /** Cancellation flags of the jobs this instance is running, by id. */
    private final Map<String, AtomicBoolean> running = new ConcurrentHashMap<>();

    SimulationQueue(SimulationJobs simulations, TransactionTemplate transactions, Clock clock,
                    SchedsimProperties properties) {
        this.simulations = simulations;
        this.transactions = transactions;
        this.clock = clock;
        this.properties = properties;
    }

    /** What a submission did. */
    public record Submission(SimulationJob job, boolean created) {
    }

    /** Thrown when an idempotency key is reused with another body. */
    public static class IdempotencyConflictException extends RuntimeException {
        public IdempotencyConflictException(String key) {
            super("the Idempotency-Key " + key + " was already used with a different request body");
        }
    }

    /** Thrown when the queue holds {@code schedsim.max-queued} rows. */
    public static class QueueFullException extends RuntimeException {
        public QueueFullException(long max) {
            super("the queue already holds " + max + " simulations; retry later");
        }
    }

    /** Thrown when a state change does not apply to the job's status. */
    public static class StateConflictException extends RuntimeException {
        public StateConflictException(String message) {
            super(message);
        }
    }

    /**
     * Queues an accepted request; with an idempotency key already used for the same body (same hash), returns
     * that job instead.
     */
    public Submission submit(String name, String requestJson, String requestHash, String idempotencyKey) {
        if (idempotencyKey != null) {
            Optional<SimulationJob> previous = simulations.findByIdempotencyKey(idempotencyKey);
            if (previous.isPresent()) {
                return replay(previous.get(), requestHash, idempotencyKey);
            }
        }
        if (simulations.countByStatus(SimulationStatus.QUEUED) >= properties.maxQueued()) {
            throw new QueueFullException(properties.maxQueued());
        }
        SimulationJob job = new SimulationJob(UUID.randomUUID().toString(), name, clock.instant(), requestJson,
                requestHash, idempotencyKey);
        try {
            return new Submission(simulations.saveAndFlush(job), true);
        } catch (DataIntegrityViolationException e) {
            // A concurrent submission with the same key won the unique index.
            SimulationJob other = simulations.findByIdempotencyKey(idempotencyKey).orElseThrow(() -> e);
            return replay(other, requestHash, idempotencyKey);
        }
    }

    private Submission replay(SimulationJob job, String requestHash, String key) {
        if (!job.getRequestHash().equals(requestHash)) {
            throw new IdempotencyConflictException(key);
        }
        return new Submission(job, false);
    }

    public Optional<SimulationJob> find(String id) {
        return simulations.findById(id);
    }

    public Page<SimulationJob> search(SimulationStatus status, String name, int page, int size) {
        return simulations.search(status, name, PageRequest.of(page, size));
    }

    /**
     * Cancels a queued or running job (a running one stops at its next engine check). Cancelling a cancelled job
     * again is a no-op; a succeeded or failed one is a conflict.
     */
    public Optional<SimulationJob> cancel(String id) {
        Optional<SimulationJob> job = simulations.findById(id);
        if (job.isEmpty()) {
            return job;
        }
        if (simulations.cancel(id, clock.instant()) == 0) {
            SimulationJob now = simulations.findById(id).orElse(null);
            if (now == null) {
                return Optional.empty();
            }
            if (now.getStatus() != SimulationStatus.CANCELLED) {
                throw new StateConflictException("simulation " + id + " already " + now.getStatus());
            }
            return Optional.of(now);
        }
        AtomicBoolean flag = running.get(id);
        if (flag != null) {
            flag.set(true);
        }
        return simulations.findById(id);
    }

    /** Removes a finished job; false when unknown; a conflict while it is queued or running. */
    public boolean delete(String id) {
        Optional<SimulationJob> job = simulations.findById(id);
        if (job.isEmpty()) {
            return false;
        }
        if (simulations.deleteFinished(id) == 0) {
            if (simulations.existsById(id)) {
                throw new StateConflictException("simulation " + id + " is " + simulations.findById(id)
                        .map(SimulationJob::getStatus).orElse(SimulationStatus.QUEUED)
                        + "; cancel it before deleting it");
            }
            return false;
        }
        return true;
    }

    /** Claims the oldest queued job for {@code worker}: its id, or empty when nothing is queued. */
    Optional<String> claim(String worker) {
        return Optional.ofNullable(transactions.execute(tx -> {
            List<String> ids = simulations.lockNextQueued();
            if (ids.isEmpty()) {
                return null;
            }
            String id = ids.get(0);
            return simulations.markRunning(id, worker, clock.instant()) == 1 ? id : null;
        }));
    }

    /** Registers the cancellation flag of a job this instance starts running. */
    AtomicBoolean started(String id) {
        AtomicBoolean flag = new AtomicBoolean();
        running.put(id, flag);
        return flag;
    }

    void ended(String id) {
        running.remove(id);
    }

    /** Start-up recovery of rows left RUNNING by a process that died. */
    int recover() {
        SchedsimProperties.Recovery r = properties.recovery();
        Instant staleBefore = r.requeueAllOnStartup()
                ? clock.instant().plus(java.time.Duration.ofDays(3650)) : clock.instant().minus(r.heartbeatTimeout());
        int n = simulations.requeueStale(staleBefore);
        if (n > 0) {
            log.info("requeued {} simulation(s) left RUNNING by a previous process", n);
        }
        return n;
    }

    public long count(SimulationStatus status) {
        return simulations.countByStatus(status);
    }
}
