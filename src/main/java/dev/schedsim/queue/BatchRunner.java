package dev.schedsim.queue;

import dev.schedsim.DatabaseErrors;
import dev.schedsim.SchedsimProperties;
import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.BudgetExceededException;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunCancelledException;
import dev.schedsim.json.Json;
import dev.schedsim.request.SimulationPlan;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs a claimed batch (runs of one variant) through the engine, one run after another, and hands the finished
 * ones to {@link SimulationCompletion} together. A run interrupted by shutdown goes back to QUEUED; a failed run
 * fails its simulation; when the batch runs past twice {@code schedsim.claim-batch} (the estimate was wrong), at
 * shutdown, or after a cancel or failure, the runs not started go back to the queue. The database being away is
 * never a run's failure ({@link DatabaseOutage}): results and state changes wait for it and are then written; a
 * run it broke off goes back to the queue.
 */
@Component
class BatchRunner {
    private static final Logger log = LoggerFactory.getLogger(BatchRunner.class);

    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationQueue queue;
    private final SimulationCompletion completion;
    private final BatchSizer sizer;
    private final Clock clock;
    private final SchedsimProperties properties;

    BatchRunner(SimulationJobs simulations, SimulationRuns runs, SimulationQueue queue,
                SimulationCompletion completion, BatchSizer sizer, Clock clock, SchedsimProperties properties) {
        this.simulations = simulations;
        this.runs = runs;
        this.queue = queue;
        this.completion = completion;
        this.sizer = sizer;
        this.clock = clock;
        this.properties = properties;
    }

    /**
     * Runs a claimed batch: its runs one after another, storing the finished ones together (when the batch ends, or
     * once per {@code schedsim.progress-interval} if it runs longer); then gives back the runs not started.
     */
    void run(SimulationQueue.Batch batch, String worker, BooleanSupplier stopping) {
        run(batch, worker, stopping, stopping);
    }

    /**
     * As {@link #run(SimulationQueue.Batch, String, BooleanSupplier)}, at a graceful stop: once {@code draining}
     * no further run of the batch starts; once {@code stopping} the running one is interrupted and requeued.
     */
    void run(SimulationQueue.Batch batch, String worker, BooleanSupplier draining, BooleanSupplier stopping) {
        List<SimulationQueue.Claim> claims = batch.runs();
        List<AtomicBoolean> flags = new ArrayList<>(claims.size());
        for (SimulationQueue.Claim claim : claims) {
            flags.add(queue.started(claim.runId()));
        }
        List<SimulationCompletion.Finished> finished = new ArrayList<>();
        int next = 0;
        try {
            long start = System.nanoTime();
            long stored = start;
            while (next < claims.size()) {
                if (next > 0 && (draining.getAsBoolean()
                        || System.nanoTime() - start > 2 * properties.claimBatch().toNanos())) {
                    break;
                }
                int i = next++;
                int after = next;
                SimulationCompletion.Finished f = runOne(claims.get(i), flags.get(i), worker, stopping,
                        () -> held(claims.subList(after, claims.size()), finished));
                if (f == null) {
                    break;
                }
                finished.add(f);
                if (System.nanoTime() - stored >= properties.progressInterval().toNanos()) {
                    DatabaseOutage.retry("store runs of " + batch.simulationId(),
                            () -> completion.store(batch, finished, worker), stopping);
                    stored = System.nanoTime();
                }
            }
        } finally {
            try {
                DatabaseOutage.retry("store runs of " + batch.simulationId(),
                        () -> completion.store(batch, finished, worker), stopping);
                List<SimulationQueue.Claim> rest = claims.subList(next, claims.size());
                DatabaseOutage.retry("give back runs of " + batch.simulationId(),
                        () -> giveBack(batch.simulationId(), rest, worker, draining), stopping);
            } finally {
                for (SimulationQueue.Claim claim : claims) {
                    queue.ended(claim.runId());
                }
            }
        }
    }

    /** The run ids a worker holds besides the one it runs: those not started, and those finished, not stored. */
    private static List<String> held(List<SimulationQueue.Claim> waiting, List<SimulationCompletion.Finished> done) {
        List<String> ids = new ArrayList<>(waiting.size() + done.size());
        waiting.forEach(c -> ids.add(c.runId()));
        done.forEach(f -> ids.add(f.claim().runId()));
        return ids;
    }

    /**
     * Runs one claimed run through the engine. Returns it finished, or null when it ended otherwise: a simulation
     * of one run (stored at once, with its result), cancelled, requeued at shutdown, or failed.
     */
    private SimulationCompletion.Finished runOne(SimulationQueue.Claim claim, AtomicBoolean cancelled, String worker,
                                                 BooleanSupplier stopping, Supplier<List<String>> held) {
        String id = claim.simulationId();
        RunHeartbeat control = null;
        Instant startedAt = clock.instant();
        try {
            SimulationPlan plan = claim.plan();
            int v = claim.runIndex() / plan.repetitions();
            SimulationPlan.Variant variant = plan.variants().get(v);
            long seed = plan.seed() + claim.runIndex() % plan.repetitions();
            control = new RunHeartbeat(runs, simulations, claim.runId(), id, worker, clock,
                    properties.progressInterval().toMillis(), cancelled, stopping, variant.spec().durationUs(), held);
            if (control.cancelled()) {
                throw new RunCancelledException();
            }
            long t0 = System.nanoTime();
            Report report = Engine.run(variant.spec(), seed, plan.eventBudget(), control);
            String reportJson = Json.STORED.writeValueAsString(report);
            if (reportJson.length() > StoredPlan.COLUMN_CHARS) {
                // Admission refuses what its estimate says will not fit (schedsim.limits.max-result-bytes); one
                // that got past it is the request's size, not a defect of the service: say so.
                ObjectNode error = Problems.problem("result-too-large", "Report too large", 422, "the run's report "
                        + "is " + reportJson.length() + " bytes, beyond the " + StoredPlan.COLUMN_CHARS + " it is "
                        + "stored in; use fewer or shorter cgroup paths, or fewer workloads");
                error.put("limit", "schedsim.limits.max-result-bytes");
                error.put("value", StoredPlan.COLUMN_CHARS);
                RunHeartbeat c = control;
                DatabaseOutage.retry("fail run " + claim.runId(), () -> completion.fail(claim, worker, error, c,
                        startedAt), stopping);
                return null;
            }
            if (plan.runs() == 1) {
                DatabaseOutage.retry("store run " + claim.runId(),
                        () -> completion.finishOnlyRun(claim, worker, plan, report, reportJson, startedAt), stopping);
                return null;
            }
            sizer.ran(id, v, System.nanoTime() - t0); // (a simulation of one run is never batched)
            return new SimulationCompletion.Finished(claim, report, reportJson, startedAt);
        } catch (RunCancelledException e) {
            if (stopping.getAsBoolean() && !cancelled.get()) {
                requeue(claim, worker, stopping);
                log.info("run {} requeued at shutdown", claim.runId());
            }
            // Otherwise cancelled: whoever cancelled recorded the state.
        } catch (BudgetExceededException e) {
            SimulationPlan plan = claim.plan();
            ObjectNode error = Problems.budgetExceeded(e.budget(),
                    plan.variants().get(claim.runIndex() / plan.repetitions()));
            RunHeartbeat c = control;
            DatabaseOutage.retry("fail run " + claim.runId(), () -> completion.fail(claim, worker, error, c,
                    startedAt), stopping);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            if (DatabaseErrors.isOutage(e)) {
                // Not the run's failure: the database went away while the run was being handled.
                log.warn("run {} given back: the database is unavailable ({})", claim.runId(),
                        DatabaseErrors.rootMessage(e));
                requeue(claim, worker, stopping);
                return null;
            }
            log.warn("run {} failed", claim.runId(), e);
            // The client sees no exception class, message or SQL (they name internals and can be megabytes
            // long); the log has them under the run's id.
            ObjectNode error = Problems.problem("simulation-failed", "Simulation failed", 500,
                    "run " + claim.runId() + " failed inside SchedSim (a defect, not a problem of the request);"
                            + " the service log has the details under the run's id");
            RunHeartbeat c = control;
            DatabaseOutage.retry("fail run " + claim.runId(), () -> completion.fail(claim, worker, error, c,
                    startedAt), stopping);
        }
        return null;
    }

    /** The run goes back to the queue (if still this worker's), written when the database is there. */
    private void requeue(SimulationQueue.Claim claim, String worker, BooleanSupplier stopping) {
        DatabaseOutage.retry("requeue run " + claim.runId(), () -> {
            runs.requeueOwn(claim.runId(), worker);
            simulations.requeueIfIdle(claim.simulationId());
        }, stopping);
    }

    /** Runs of a batch the worker did not start go back to the queue (those still its own). */
    private void giveBack(String simulationId, List<SimulationQueue.Claim> rest, String worker,
                          BooleanSupplier stopping) {
        int n = 0;
        for (SimulationQueue.Claim claim : rest) {
            n += runs.requeueOwn(claim.runId(), worker);
        }
        if (n > 0) {
            if (stopping.getAsBoolean()) {
                simulations.requeueIfIdle(simulationId);
                log.info("{} run(s) of simulation {} requeued at shutdown", n, simulationId);
            }
            queue.wake(n);
        }
    }
}
