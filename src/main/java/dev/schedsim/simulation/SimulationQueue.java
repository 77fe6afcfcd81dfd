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
 * repetition), which are the units of work: workers of any instance claim runs, a few of one variant at a time
 * (row locks with {@code FOR UPDATE SKIP LOCKED}, then conditional updates, in one transaction), keep them
 * alive with a heartbeat, and a run whose heartbeat is older than {@code schedsim.recovery.heartbeat-timeout} is
 * requeued by {@link #reap()} on any live instance. Also cancellation (of every run) and removal.
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

    /** Runs a worker claimed at once: runs of one variant of one simulation, in run order. */
    record Batch(String simulationId, String requestJson, List<Claim> runs) {
    }

    /** How many runs a worker takes in one claim, counted from the first queued one (see {@link #claim}). */
    interface BatchSize {
        int runs(String simulationId, String requestJson, int firstRunIndex);
    }

    /** The most runs one claim takes. */
    static final int MAX_BATCH = 32;

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
            wake(n);
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

    /**
     * Claims, for {@code worker}, the oldest queued run nobody holds and the queued runs that follow it in the same
     * simulation with a run index below {@code first + size.runs(…)} (the runner keeps a batch within one variant
     * and to about {@code schedsim.claim-batch} of work), and marks the simulation RUNNING; empty when nothing is
     * queued. One claim per batch instead of one per run: a sweep of short runs spent more of its time claiming
     * (a lock, two updates and a read, committed) than in the engine.
     */
    Optional<Batch> claim(String worker, BatchSize size) {
        for (int attempt = 0; attempt < 16; attempt++) {
            Batch batch = transactions.execute(tx -> claimOnce(worker, size));
            if (batch == null) {
                return Optional.empty();
            }
            if (!batch.runs().isEmpty()) {
                return Optional.of(batch);
            }
            // Other workers held every run read (their claims not committed yet): read again.
        }
        return Optional.empty();
    }

    /**
     * One attempt, in the caller's transaction: null when nothing is queued, no runs when other workers held
     * every run read. Reads the queue's head, locks its first run that nobody holds, then the runs that follow
     * it in the batch, skipping those another claim holds: it locks no more than it takes, and reads a request
     * and sizes a batch only for a run it holds.
     */
    private Batch claimOnce(String worker, BatchSize size) {
        List<String> head = runs.nextQueued(MAX_BATCH);
        if (head.isEmpty()) {
            return null;
        }
        for (int from = 0; from < head.size(); from++) {
            String firstId = head.get(from);
            if (runs.lockQueued(List.of(firstId)).isEmpty()) {
                continue; // another claim holds it, or took it since the head was read
            }
            String simulation = simulationOf(firstId);
            String requestJson = simulations.findRequestJson(simulation);
            int first = runIndexOf(firstId);
            long end = first + (long) Math.max(1, Math.min(MAX_BATCH, size.runs(simulation, requestJson, first)));
            List<String> more = new java.util.ArrayList<>();
            for (int i = from + 1; i < head.size(); i++) {
                String id = head.get(i);
                if (!simulationOf(id).equals(simulation) || runIndexOf(id) >= end) {
                    break;
                }
                more.add(id);
            }
            java.util.Set<String> locked = new java.util.HashSet<>(List.of(firstId));
            if (!more.isEmpty()) {
                locked.addAll(runs.lockQueued(more));
            }
            List<String> taken = head.subList(from, from + 1 + more.size()).stream().filter(locked::contains)
                    .toList();
            Instant now = clock.instant();
            // Locked, and queued when locked: the update takes every one of them.
            if (runs.markRunning(taken, worker, now) != taken.size()) {
                throw new IllegalStateException("runs locked for a claim changed: " + taken);
            }
            List<Claim> claimed = taken.stream()
                    .map(id -> new Claim(id, simulation, runIndexOf(id), requestJson)).toList();
            simulations.markRunning(simulation, worker, now);
            return new Batch(simulation, requestJson, claimed);
        }
        return new Batch(null, null, List.of());
    }

    private static String simulationOf(String runId) {
        return runId.substring(0, runId.lastIndexOf('/'));
    }

    private static int runIndexOf(String runId) {
        return Integer.parseInt(runId.substring(runId.lastIndexOf('/') + 1));
    }

    /** Wakes as many of this instance's idle workers as there are new queued runs (at most all of them). */
    void wake(int runs) {
        int idle = Math.min(runs, properties.workers()) - queued.availablePermits();
        if (idle > 0) {
            queued.release(idle);
        }
    }

    /** An idle worker waits here: until runs were queued on this instance, at most {@code maxMs}. */
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
