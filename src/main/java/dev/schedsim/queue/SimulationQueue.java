package dev.schedsim.queue;

import dev.schedsim.SchedsimProperties;
import dev.schedsim.request.SimulationPlan;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The job queue, kept in the database: a simulation is split at submission into its runs (variant ×
 * repetition), which are the units of work. Workers of any instance claim runs, a few of one variant at a time
 * (row locks with {@code FOR UPDATE SKIP LOCKED}, then conditional updates, in one transaction); this instance's
 * idle workers are woken when a submission here queued runs, and the cancellation flags of the runs running here
 * are kept. Submitting is {@link SimulationSubmitter}'s, cancelling and removing {@link SimulationControl}'s,
 * requeueing what dead workers left {@link QueueRecovery}'s.
 */
@Component
public class SimulationQueue {
    private final SimulationJobs simulations;
    private final SimulationPlans plans;
    private final SimulationRuns runs;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final SchedsimProperties properties;
    /** Wakes this instance's idle workers when a submission queued runs (others find them by polling). */
    private final java.util.concurrent.Semaphore queued = new java.util.concurrent.Semaphore(0);
    /** Cancellation flags of the runs this instance is running, by run id ({@code simulationId/index}). */
    private final Map<String, AtomicBoolean> running = new ConcurrentHashMap<>();

    SimulationQueue(SimulationJobs simulations, SimulationPlans plans, SimulationRuns runs,
                    TransactionTemplate transactions, Clock clock, SchedsimProperties properties) {
        this.simulations = simulations;
        this.plans = plans;
        this.runs = runs;
        this.transactions = transactions;
        this.clock = clock;
        this.properties = properties;
    }

    /** A run a worker claimed, with its simulation's plan. */
    record Claim(String runId, String simulationId, int runIndex, SimulationPlan plan) {
    }

    /** Runs a worker claimed at once: runs of one variant of one simulation, in run order. */
    record Batch(String simulationId, SimulationPlan plan, List<Claim> runs) {
    }

    /** How many runs a worker takes in one claim, counted from the first queued one (see {@link #claim}). */
    interface BatchSize {
        int runs(String simulationId, SimulationPlan plan, int firstRunIndex);
    }

    /** The most runs one claim takes. */
    static final int MAX_BATCH = 32;

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
            SimulationPlan plan = plans.of(simulation);
            int first = runIndexOf(firstId);
            long end = first + (long) Math.max(1, Math.min(MAX_BATCH, size.runs(simulation, plan, first)));
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
                    .map(id -> new Claim(id, simulation, runIndexOf(id), plan)).toList();
            simulations.markRunning(simulation, worker, now);
            return new Batch(simulation, plan, claimed);
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

    /** Stops the runs of a simulation that run here, at their next engine check. */
    void cancelRunning(String simulationId) {
        running.forEach((run, flag) -> {
            if (run.startsWith(simulationId + "/")) {
                flag.set(true);
            }
        });
    }
}
