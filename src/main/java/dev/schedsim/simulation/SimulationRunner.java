package dev.schedsim.simulation;

import dev.schedsim.engine.BudgetExceededException;
import dev.schedsim.engine.Engine;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunCancelledException;
import dev.schedsim.engine.RunControl;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs claimed runs (variant × repetition, a batch at a time) through the engine and stores their reports. The
 * worker whose run completes the simulation's last outstanding run builds the result document from all stored
 * reports (exactly as from in-memory reports: {@link ResultDocument}) and marks the simulation SUCCEEDED; a
 * failed run fails the simulation and cancels its other runs; a run interrupted by shutdown goes back to QUEUED.
 */
@Component
class SimulationRunner {
    private static final Logger log = LoggerFactory.getLogger(SimulationRunner.class);
    static final String PROBLEM_BASE = "https://schedsim.dev/problems/";
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationResults results;
    private final SimulationRunReports reports;
    private final SimulationQueue queue;
    private final SimulationPlanner planner;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final SchedsimProperties properties;
    private final TransactionTemplate transactions;
    private final Durability durability;
    /** When this instance last wrote each running simulation's progress ({@link #aggregateDue}), System.nanoTime. */
    private final java.util.concurrent.ConcurrentHashMap<String, Long> lastAggregate =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** The last run time (ns) of each variant run here, by "simulation#variant" ({@link #batchSize}). */
    private final java.util.concurrent.ConcurrentHashMap<String, Long> runTime =
            new java.util.concurrent.ConcurrentHashMap<>();

    SimulationRunner(SimulationJobs simulations, SimulationRuns runs, SimulationResults results,
                     SimulationRunReports reports, SimulationQueue queue, SimulationPlanner planner,
                     ApplicationEventPublisher events, Clock clock, SchedsimProperties properties,
                     TransactionTemplate transactions, Durability durability) {
        this.transactions = transactions;
        this.durability = durability;
        this.simulations = simulations;
        this.runs = runs;
        this.results = results;
        this.reports = reports;
        this.queue = queue;
        this.planner = planner;
        this.events = events;
        this.clock = clock;
        this.properties = properties;
    }

    /**
     * Runs a claimed batch: its runs one after another, storing the finished ones together (when the batch ends,
     * or once per {@code schedsim.progress-interval} if it runs longer). When it ran past twice
     * {@code schedsim.claim-batch} (the estimate was wrong), at shutdown, or when a run was cancelled or failed,
     * the runs not started go back to the queue.
     */
    void run(SimulationQueue.Batch batch, String worker, BooleanSupplier stopping) {
        List<SimulationQueue.Claim> claims = batch.runs();
        List<AtomicBoolean> flags = new ArrayList<>(claims.size());
        for (SimulationQueue.Claim claim : claims) {
            flags.add(queue.started(claim.runId()));
        }
        List<Finished> finished = new ArrayList<>();
        int next = 0;
        try {
            long start = System.nanoTime();
            long stored = start;
            while (next < claims.size()) {
                if (next > 0 && (stopping.getAsBoolean()
                        || System.nanoTime() - start > 2 * properties.claimBatch().toNanos())) {
                    break;
                }
                int i = next++;
                int after = next;
                Finished f = runOne(claims.get(i), flags.get(i), worker, stopping,
                        () -> held(claims.subList(after, claims.size()), finished));
                if (f == null) {
                    break;
                }
                finished.add(f);
                if (System.nanoTime() - stored >= properties.progressInterval().toNanos()) {
                    store(batch, finished, worker);
                    stored = System.nanoTime();
                }
            }
        } finally {
            try {
                store(batch, finished, worker);
                giveBack(batch.simulationId(), claims.subList(next, claims.size()), worker, stopping);
            } finally {
                for (SimulationQueue.Claim claim : claims) {
                    queue.ended(claim.runId());
                }
            }
        }
    }

    /** A run of a batch that finished and whose report is not stored yet. */
    private record Finished(SimulationQueue.Claim claim, Report report, String reportJson, Instant startedAt) {
    }

    /** The run ids a worker holds besides the one it runs: those not started, and those finished, not stored. */
    private static List<String> held(List<SimulationQueue.Claim> waiting, List<Finished> finished) {
        List<String> ids = new ArrayList<>(waiting.size() + finished.size());
        waiting.forEach(c -> ids.add(c.runId()));
        finished.forEach(f -> ids.add(f.claim().runId()));
        return ids;
    }

    /**
     * Runs one claimed run through the engine. Returns it finished, or null when it ended otherwise: a
     * simulation of one run (stored at once, with its result), cancelled, requeued at shutdown, or failed.
     */
    private Finished runOne(SimulationQueue.Claim claim, AtomicBoolean cancelled, String worker,
                            BooleanSupplier stopping, Supplier<List<String>> held) {
        String id = claim.simulationId();
        RunHeartbeat control = null;
        Instant startedAt = clock.instant();
        try {
            SimulationPlan plan = planner.plan(claim.requestJson());
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
            String reportJson = JSON.writeValueAsString(report);
            if (plan.runs() == 1) {
                finishOnlyRun(claim, worker, plan, report, reportJson, startedAt);
                return null;
            }
            ran(id, v, System.nanoTime() - t0); // (a simulation of one run is never batched)
            return new Finished(claim, report, reportJson, startedAt);
        } catch (RunCancelledException e) {
            if (stopping.getAsBoolean() && !cancelled.get()) {
                runs.requeueOwn(claim.runId(), worker);
                simulations.requeueIfIdle(id);
                log.info("run {} requeued at shutdown", claim.runId());
            }
            // Otherwise cancelled: whoever cancelled recorded the state.
        } catch (BudgetExceededException e) {
            ObjectNode error = problem("budget-exceeded", "Event budget exceeded", 422,
                    e.getMessage() + "; simulate less time, fewer threads or a smaller machine");
            error.put("limit", "schedsim.limits.max-events");
            error.put("value", e.budget());
            fail(claim, worker, error, control, startedAt);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            log.warn("run {} failed", claim.runId(), e);
            fail(claim, worker, problem("simulation-failed", "Simulation failed", 500,
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())), control,
                    startedAt);
        }
        return null;
    }

    /**
     * Stores finished runs of a batch in one transaction (each SUCCEEDED with its report, when still this
     * worker's), then writes the simulation's progress when due and completes it when these were its last runs.
     */
    private void store(SimulationQueue.Batch batch, List<Finished> finished, String worker) {
        if (finished.isEmpty()) {
            return;
        }
        String id = batch.simulationId();
        Instant now = clock.instant();
        List<Finished> these = List.copyOf(finished);
        finished.clear();
        Integer stored = transactions.execute(tx -> finishRuns(these, worker, now));
        if (stored != null && stored > 0) {
            if (aggregateDue(id)) {
                simulations.aggregate(id, now);
            }
            completeIfDone(id, planner.plan(batch.requestJson()));
        }
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

    /**
     * How many runs a worker claims at once from {@code first} on: within {@code first}'s variant, as many as fit
     * in {@code schedsim.claim-batch} by that variant's previous run on this instance; one while it has none.
     * (Repetitions of a variant differ only in their seed; variants may differ in anything.)
     */
    int batchSize(String simulationId, String requestJson, int first) {
        long budget = properties.claimBatch().toNanos();
        if (budget <= 0) {
            return 1;
        }
        SimulationPlan plan;
        try {
            plan = planner.plan(requestJson);
        } catch (RuntimeException e) {
            return 1; // the run fails, and the simulation with it, when it runs
        }
        int v = first / plan.repetitions();
        Long last = runTime.get(simulationId + "#" + v);
        if (last == null) {
            return 1;
        }
        int left = (v + 1) * plan.repetitions() - first;
        return (int) Math.max(1, Math.min(left, budget / Math.max(1, last)));
    }

    /** Notes how long a run of a variant took here (engine and report), for {@link #batchSize}. */
    private void ran(String simulationId, int variant, long nanos) {
        if (runTime.size() >= 4096) {
            runTime.clear(); // (entries of simulations that ended: at worst one batch of one run too many)
        }
        runTime.put(simulationId + "#" + variant, nanos);
    }

    /**
     * A run of a request as a job runs it, for the idle workers' JIT warm-up ({@link EngineWarmup}): plan, engine,
     * report JSON, result document, then the job's own statements on a simulation row of its own that is never
     * committed ({@link #rehearseStorage}). The engine stops early when {@code stopping} turns true. Returns the
     * events run.
     */
    long rehearse(String requestJson, String worker, BooleanSupplier stopping) {
        SimulationPlan plan = planner.plan(requestJson);
        Report report = Engine.run(plan.variants().get(0).spec(), plan.seed(), plan.eventBudget(), new RunControl() {
            @Override
            public boolean cancelled() {
                return stopping.getAsBoolean();
            }

            @Override
            public void progress(long simulatedUs, long events) {
            }
        });
        String reportJson = JSON.writeValueAsString(report);
        String result = ResultDocument.build(plan, List.of(List.of(report)));
        rehearseStorage(requestJson, worker, report, reportJson, result);
        return report.events();
    }

    /**
     * The statements of a one-run job, from submission to finish (insert, claim reads and updates, heartbeat,
     * finish with the report and result inserts, flushed so that they execute), on a row of its own in a
     * transaction that is rolled back: nobody, on this instance or another, ever sees it, and
     * no metric or event is published. A cold service spent most of a small job's time in these (JDBC, Hibernate,
     * the database), not in the engine.
     */
    private void rehearseStorage(String requestJson, String worker, Report report, String reportJson,
                                 String result) {
        transactions.executeWithoutResult(tx -> {
            tx.setRollbackOnly();
            Instant now = clock.instant();
            String id = UUID.randomUUID().toString();
            simulations.saveAndFlush(new SimulationJob(id, "warmup", now, requestJson, "warmup", null));
            runs.saveAllAndFlush(List.of(new SimulationRun(id, 0, now)));
            SimulationQueue.Claim claim = new SimulationQueue.Claim(SimulationRun.id(id, 0), id, 0, requestJson);
            runs.nextQueued(1);
            runs.lockQueued(List.of(claim.runId()));
            runs.markRunning(List.of(claim.runId()), worker, now);
            simulations.markRunning(id, worker, now);
            simulations.findRequestJson(id);
            runs.heartbeat(claim.runId(), worker, 0.5, report.events() / 2, now);
            finishRuns(List.of(new Finished(claim, report, reportJson, now)), worker, now);
            succeed(id, result, report.events(), now);
            runs.flush();
        });
    }

    /**
     * Settles a simulation whose runs all ended but whose row is still RUNNING (the worker of its last run died
     * in between): SUCCEEDED with its result when every run succeeded, else FAILED.
     */
    void settle(String id) {
        SimulationJob job = simulations.findById(id).orElse(null);
        if (job == null || job.getStatus() != SimulationStatus.RUNNING) {
            return;
        }
        if (runs.countBySimulationIdAndStatusNot(id, SimulationStatus.SUCCEEDED) == 0) {
            completeIfDone(id, planner.plan(job.getRequestJson()));
            return;
        }
        Instant now = clock.instant();
        String error = problemJson("simulation-failed", "Simulation failed", 500, "a run of the simulation failed");
        if (simulations.finish(id, SimulationStatus.FAILED, job.getProgress(), error, job.getEvents(), now) == 1) {
            runs.cancelAll(id, now);
            publish(id, SimulationStatus.FAILED, now, job.getEvents(), 0, null);
        }
    }

    /**
     * A simulation of one run: the run and the simulation end in one transaction, the result built from the
     * report in memory (the same document as from the stored report, see {@link ResultDocument}).
     */
    private void finishOnlyRun(SimulationQueue.Claim claim, String worker, SimulationPlan plan, Report report,
                               String reportJson, Instant startedAt) {
        String id = claim.simulationId();
        String result = ResultDocument.build(plan, List.of(List.of(report)));
        Instant now = clock.instant();
        Boolean done = transactions.execute(tx -> finishRuns(List.of(new Finished(claim, report, reportJson,
                startedAt)), worker, now) == 1 && succeed(id, result, report.events(), now));
        if (Boolean.TRUE.equals(done)) {
            publish(id, SimulationStatus.SUCCEEDED, now, report.events(), report.simulatedUs(), result);
        }
    }

    /** When every run succeeded: the result document from the stored reports, then SUCCEEDED (once). */
    private void completeIfDone(String id, SimulationPlan plan) {
        if (runs.countBySimulationIdAndStatusNot(id, SimulationStatus.SUCCEEDED) > 0) {
            return;
        }
        List<SimulationRunReport> stored = reports.findBySimulationIdOrderByRunIndex(id);
        if (stored.size() != plan.runs()) {
            throw new IllegalStateException("simulation " + id + " has " + stored.size() + " stored reports for "
                    + plan.runs() + " runs");
        }
        List<List<Report>> byVariant = new ArrayList<>();
        long events = 0;
        long simulatedUs = 0;
        for (int v = 0; v < plan.variants().size(); v++) {
            List<Report> variant = new ArrayList<>();
            for (int r = 0; r < plan.repetitions(); r++) {
                Report report = JSON.readValue(stored.get(v * plan.repetitions() + r).getReportJson(), Report.class);
                variant.add(report);
                events += report.events();
                simulatedUs += report.simulatedUs();
            }
            byVariant.add(variant);
        }
        String result = ResultDocument.build(plan, byVariant);
        lastAggregate.remove(id);
        Instant now = clock.instant();
        long total = events;
        if (Boolean.TRUE.equals(transactions.execute(tx -> succeed(id, result, total, now)))) {
            publish(id, SimulationStatus.SUCCEEDED, now, events, simulatedUs, result);
        }
    }

    private void fail(SimulationQueue.Claim claim, String worker, ObjectNode error, RunHeartbeat control,
                      Instant startedAt) {
        Instant now = clock.instant();
        long events = control == null ? 0 : control.events();
        if (runs.finish(claim.runId(), worker, SimulationStatus.FAILED, control == null ? 0 : control.fraction(),
                events, 0, startedAt, now) == 0) {
            return;
        }
        String id = claim.simulationId();
        simulations.aggregate(id, now);
        SimulationJob job = simulations.findById(id).orElse(null);
        if (job != null && simulations.finish(id, SimulationStatus.FAILED, job.getProgress(),
                JSON.writeValueAsString(error), job.getEvents(), now) == 1) {
            runs.cancelAll(id, now);
            publish(id, SimulationStatus.FAILED, now, job.getEvents(), 0, null);
        }
    }

    /**
     * Whether this instance should write a simulation's progress after one of its runs ended: at most once per
     * {@code schedsim.progress-interval} per simulation (the meaning of that property). A sweep of small runs
     * ended a run every few milliseconds, and each progress write averages over all the simulation's runs. The
     * simulation's end writes its final progress and events regardless.
     */
    private boolean aggregateDue(String id) {
        long now = System.nanoTime();
        Long last = lastAggregate.get(id);
        if (last != null && now - last < properties.progressInterval().toNanos()) {
            return false;
        }
        if (lastAggregate.size() >= 1024) {
            lastAggregate.clear(); // (entries of simulations that ended: at worst one progress write too many)
        }
        lastAggregate.put(id, now);
        return true;
    }

    /**
     * In the caller's transaction: each run SUCCEEDED (when it is still this worker's) and its report stored;
     * returns how many. A run no longer this worker's (cancelled, or requeued after a stale heartbeat) is left
     * alone. The reports are inserted after the updates, so that they go to the database in one JDBC batch
     * ({@code hibernate.jdbc.batch_size}) when the transaction commits.
     */
    private int finishRuns(List<Finished> finished, String worker, Instant now) {
        List<SimulationRunReport> rows = new ArrayList<>(finished.size());
        for (Finished f : finished) {
            if (runs.finish(f.claim().runId(), worker, SimulationStatus.SUCCEEDED, 1.0, f.report().events(),
                    f.report().simulatedUs(), f.startedAt(), now) == 1) {
                rows.add(new SimulationRunReport(f.claim().simulationId(), f.claim().runIndex(), f.reportJson()));
            }
        }
        reports.saveAll(rows);
        return rows.size();
    }

    /**
     * In the caller's transaction: the simulation SUCCEEDED with its result stored, once; false when it had
     * already ended (cancelled, failed, or settled by another worker).
     */
    private boolean succeed(String id, String result, long events, Instant now) {
        if (simulations.finish(id, SimulationStatus.SUCCEEDED, 1.0, null, events, now) != 1) {
            return false;
        }
        results.save(new SimulationResult(id, result));
        return true;
    }

    private void publish(String id, SimulationStatus outcome, Instant now, long events, long simulatedUs,
                         String result) {
        // A simulation's end is what clients wait for: on disk before anyone is told.
        durability.flush();
        SimulationJob job = simulations.findById(id).orElse(null);
        String label = job == null ? id : job.label();
        Instant start = job == null || job.getStartedAt() == null ? now : job.getStartedAt();
        this.events.publishEvent(new SimulationFinished(id, label, outcome, Duration.between(start, now), events,
                simulatedUs, result));
    }

    static String problemJson(String type, String title, int status, String detail) {
        return JSON.writeValueAsString(problem(type, title, status, detail));
    }

    static ObjectNode problem(String type, String title, int status, String detail) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("type", PROBLEM_BASE + type);
        n.put("title", title);
        n.put("status", status);
        n.put("detail", detail);
        return n;
    }
}
