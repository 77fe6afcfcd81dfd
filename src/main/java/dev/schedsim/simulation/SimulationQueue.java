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
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The job queue, kept in the database. A simulation is split at submission into its runs (variant ×
 * repetition), which are the units of work: workers of any instance claim runs (row lock with
 * {@code FOR UPDATE SKIP LOCKED}, then a conditional update, in one transaction), keep them alive with a
 * heartbeat, and a run whose heartbeat is older than {@code schedsim.recovery.heartbeat-timeout} is requeued by
 * {@link #reap()} on any live instance. Also cancellation (of every run) and removal.
 */
@Component
public class SimulationQueue {
    private static final Logger log = LoggerFactory.getLogger(SimulationQueue.class);

    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationResults results;
    private final SimulationPlanner planner;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final SchedsimProperties properties;
    private final Durability durability;
    /** Wakes this instance's idle workers when a submission queued runs (others find them by polling). */
    private final java.util.concurrent.Semaphore queued = new java.util.concurrent.Semaphore(0);
    /** Cancellation flags of the runs this instance is running, by run id ({@code simulationId/index}). */
    private final Map<String, AtomicBoolean> running = new ConcurrentHashMap<>();

    SimulationQueue(SimulationJobs simulations, SimulationRuns runs, SimulationResults results,
                    SimulationPlanner planner, ApplicationEventPublisher events, TransactionTemplate transactions,
                    Clock clock, SchedsimProperties properties, Durability durability) {
        this.durability = durability;
        this.simulations = simulations;
        this.runs = runs;
        this.results = results;
        this.planner = planner;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
        this.properties = properties;
    }

    /** What a submission did. */
    public record Submission(SimulationJob job, boolean created) {
    }

    /** A run a worker claimed, with its simulation's accepted request. */
    record Claim(String runId, String simulationId, int runIndex, String requestJson) {
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
        int n = planner.plan(requestJson).runs();
        try {
            Submission s = new Submission(transactions.execute(tx -> {
                SimulationJob saved = simulations.saveAndFlush(job);
                createRuns(saved.getId(), n, saved.getCreatedAt());
                return saved;
            }), true);
            durability.flush();
            int idle = Math.min(n, properties.workers()) - queued.availablePermits();
            if (idle > 0) {
                queued.release(idle);
            }
            return s;
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

    /** The result document of a job, looked up only once it SUCCEEDED; null before or when it did not. */
    public String result(SimulationJob job) {
        return job.getStatus() == SimulationStatus.SUCCEEDED ? results.findResultJson(job.getId()).orElse(null)
                : null;
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
        Instant now = clock.instant();
        if (simulations.cancel(id, now) == 0) {
            SimulationJob current = simulations.findById(id).orElse(null);
            if (current == null) {
                return Optional.empty();
            }
            if (current.getStatus() != SimulationStatus.CANCELLED) {
                throw new StateConflictException("simulation " + id + " already " + current.getStatus());
            }
            return Optional.of(current);
        }
        // Runs running here stop at their next engine check; those on other instances at their next heartbeat.
        runs.cancelAll(id, now);
        durability.flush();
        running.forEach((run, flag) -> {
            if (run.startsWith(id + "/")) {
                flag.set(true);
            }
        });
        Optional<SimulationJob> cancelled = simulations.findById(id);
        cancelled.ifPresent(j -> events.publishEvent(new SimulationFinished(id, j.label(),
                SimulationStatus.CANCELLED, java.time.Duration.between(
                        j.getStartedAt() != null ? j.getStartedAt() : j.getCreatedAt(), now),
                j.getEvents(), 0, null)));
        return cancelled;
    }

    /** Removes a finished job; false when unknown; a conflict while it is queued or running. */
    public boolean delete(String id) {
        Optional<SimulationJob> job = simulations.findById(id);
        if (job.isEmpty()) {
            return false;
        }
        int deleted = simulations.deleteFinished(id);
        durability.flush();
        if (deleted == 0) {
            if (simulations.existsById(id)) {
                throw new StateConflictException("simulation " + id + " is " + simulations.findById(id)
                        .map(SimulationJob::getStatus).orElse(SimulationStatus.QUEUED)
                        + "; cancel it before deleting it");
            }
            return false;
        }
        return true;
    }

    /** Claims the oldest queued run for {@code worker} and marks its simulation RUNNING; empty when none. */
    Optional<Claim> claim(String worker) {
        return Optional.ofNullable(transactions.execute(tx -> {
            List<String> ids = runs.lockNextQueued();
            if (ids.isEmpty()) {
                return null;
            }
            String id = ids.get(0);
            Instant now = clock.instant();
            if (runs.markRunning(id, worker, now) != 1) {
                return null;
            }
            int slash = id.lastIndexOf('/');
            String simulation = id.substring(0, slash);
            simulations.markRunning(simulation, worker, now);
            return new Claim(id, simulation, Integer.parseInt(id.substring(slash + 1)),
                    simulations.findRequestJson(simulation));
        }));
    }

    /** An idle worker waits here: until runs were submitted to this instance, at most {@code maxMs}. */
    void awaitWork(long maxMs) throws InterruptedException {
        queued.tryAcquire(maxMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Registers the cancellation flag of a run this instance starts running. */
    AtomicBoolean started(String runId) {
        AtomicBoolean flag = new AtomicBoolean();
        running.put(runId, flag);
        return flag;
    }

    void ended(String runId) {
        running.remove(runId);
    }

    /** This instance has work: a run in progress, or a submission that woke workers and was not yet taken. */
    boolean busy() {
        return !running.isEmpty() || queued.availablePermits() > 0;
    }

    /**
     * Start-up recovery: with {@code requeue-all-on-startup} (one instance, the H2 default) every RUNNING run
     * belongs to a dead process; otherwise only those whose heartbeat is stale. Returns the runs and the
     * run-less simulation rows put back in the queue.
     */
    int recover() {
        SchedsimProperties.Recovery r = properties.recovery();
        Instant staleBefore = r.requeueAllOnStartup()
                ? clock.instant().plus(java.time.Duration.ofDays(3650)) : clock.instant().minus(r.heartbeatTimeout());
        return requeue(staleBefore);
    }

    /** Periodic: requeues runs whose worker died (heartbeat older than the timeout), on whatever instance. */
    int reap() {
        return requeue(clock.instant().minus(properties.recovery().heartbeatTimeout()));
    }

    /** Simulations whose runs all ended but that nobody settled (see {@link SimulationRunner#settle}). */
    List<String> unsettled(boolean startup) {
        boolean all = startup && properties.recovery().requeueAllOnStartup();
        return simulations.findUnsettled(all ? clock.instant().plus(java.time.Duration.ofDays(3650))
                : clock.instant().minus(properties.recovery().heartbeatTimeout()));
    }

    private int requeue(Instant staleBefore) {
        int n = runs.requeueStale(staleBefore);
        int m = simulations.requeueStale(staleBefore);
        int legacy = 0;
        for (String id : simulations.findUnfinishedWithoutRuns()) {
            legacy += ensureRuns(id) ? 1 : 0;
        }
        if (n + m > 0) {
            log.info("requeued {} run(s) and {} simulation(s) left RUNNING by a worker that is gone", n, m);
        }
        return n + legacy;
    }

    /** Rows written before runs existed (or by hand) get their runs; false when another instance was first. */
    private boolean ensureRuns(String id) {
        try {
            SimulationJob job = simulations.findById(id).orElse(null);
            if (job == null) {
                return false;
            }
            int n = planner.plan(job.getRequestJson()).runs();
            transactions.executeWithoutResult(tx -> createRuns(id, n, job.getCreatedAt()));
            return true;
        } catch (DataIntegrityViolationException e) {
            return false;
        } catch (RuntimeException e) {
            // An unreadable legacy request: fail it rather than retry it forever.
            log.warn("simulation {} cannot be planned: {}", id, e.toString());
            simulations.finish(id, SimulationStatus.FAILED, 0, SimulationRunner.problemJson(
                    "simulation-failed", "Simulation failed", 500, e.toString()), 0, clock.instant());
            return false;
        }
    }

    private void createRuns(String id, int n, Instant createdAt) {
        List<SimulationRun> rows = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(new SimulationRun(id, i, createdAt));
        }
        runs.saveAllAndFlush(rows);
    }

    public long count(SimulationStatus status) {
        return simulations.countByStatus(status);
    }
}
