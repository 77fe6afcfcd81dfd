package dev.schedsim.queue;

import dev.schedsim.SchedsimProperties;
import dev.schedsim.engine.api.Report;
import dev.schedsim.json.Json;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.result.ResultBuilder;
import dev.schedsim.result.ResultJson;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.ObjectNode;

/**
 * How runs and simulations end in the database: finished runs stored with their reports (a batch's in one
 * transaction), the simulation's progress written at most once per {@code schedsim.progress-interval}, and once
 * every run succeeded the result document built from the stored reports (the same document as from the reports in
 * memory) and the simulation SUCCEEDED, once; a failed run fails its simulation and cancels the other runs. The end
 * is on disk before anyone is told ({@link SimulationFinished}).
 */
@Component
class SimulationCompletion {

    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationResults results;
    private final SimulationRunReports reports;
    private final SimulationPlans plans;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final SchedsimProperties properties;
    private final TransactionTemplate transactions;
    private final Durability durability;
    /** When this instance last wrote each running simulation's progress ({@link #aggregateDue}), System.nanoTime. */
    private final ConcurrentHashMap<String, Long> lastAggregate = new ConcurrentHashMap<>();

    SimulationCompletion(SimulationJobs simulations, SimulationRuns runs, SimulationResults results,
                         SimulationRunReports reports, SimulationPlans plans, ApplicationEventPublisher events,
                         Clock clock, SchedsimProperties properties, TransactionTemplate transactions,
                         Durability durability) {
        this.simulations = simulations;
        this.runs = runs;
        this.results = results;
        this.reports = reports;
        this.plans = plans;
        this.events = events;
        this.clock = clock;
        this.properties = properties;
        this.transactions = transactions;
        this.durability = durability;
    }

    /** A run that finished and whose report is not stored yet. */
    record Finished(SimulationQueue.Claim claim, Report report, String reportJson, Instant startedAt) {
    }

    /** The result document of a plan's reports (per variant, in seed order). */
    static String result(SimulationPlan plan, List<List<Report>> byVariant) {
        List<String> labels = plan.variants().stream().map(SimulationPlan.Variant::label).toList();
        List<java.util.Set<String>> quotas = new ArrayList<>();
        for (SimulationPlan.Variant v : plan.variants()) {
            java.util.Set<String> limited = new java.util.HashSet<>();
            v.spec().cgroups().forEach(c -> {
                if (c.quotaUs() != -1) {
                    limited.add(c.path());
                }
            });
            quotas.add(limited);
        }
        return ResultJson.write(ResultBuilder.build(plan.seed(), labels, byVariant,
                new ResultBuilder.Cadvisor(plan.cgroupLabels(), quotas)));
    }

    /**
     * Stores finished runs of a batch in one transaction (each SUCCEEDED with its report, when still this
     * worker's), then writes the simulation's progress when due and completes it when these were its last runs.
     */
    void store(SimulationQueue.Batch batch, List<Finished> finished, String worker) {
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
            completeIfDone(id, batch.plan());
        }
    }

    /**
     * A simulation of one run: the run and the simulation end in one transaction, the result built from the report
     * in memory.
     */
    void finishOnlyRun(SimulationQueue.Claim claim, String worker, SimulationPlan plan, Report report,
                       String reportJson, Instant startedAt) {
        String id = claim.simulationId();
        String result = result(plan, List.of(List.of(report)));
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
                Report report = Json.STORED.readValue(stored.get(v * plan.repetitions() + r).getReportJson(), Report.class);
                variant.add(report);
                events += report.events();
                simulatedUs += report.simulatedUs();
            }
            byVariant.add(variant);
        }
        String result = result(plan, byVariant);
        lastAggregate.remove(id);
        Instant now = clock.instant();
        long total = events;
        if (Boolean.TRUE.equals(transactions.execute(tx -> succeed(id, result, total, now)))) {
            publish(id, SimulationStatus.SUCCEEDED, now, events, simulatedUs, result);
        }
    }

    /** A run failed: it and its simulation end FAILED with the problem document, the other runs are cancelled. */
    void fail(SimulationQueue.Claim claim, String worker, ObjectNode error, RunHeartbeat control, Instant startedAt) {
        Instant now = clock.instant();
        long events = control == null ? 0 : control.events();
        if (runs.finish(claim.runId(), worker, SimulationStatus.FAILED, control == null ? 0 : control.fraction(),
                events, 0, startedAt, now) == 0) {
            return;
        }
        String id = claim.simulationId();
        simulations.aggregate(id, now);
        SimulationJob job = simulations.findById(id).orElse(null);
        if (job != null && simulations.finish(id, SimulationStatus.FAILED, job.getProgress(), Problems.json(error),
                job.getEvents(), now) == 1) {
            runs.cancelAll(id, now);
            publish(id, SimulationStatus.FAILED, now, job.getEvents(), 0, null);
        }
    }

    /**
     * Settles a simulation whose runs all ended but whose row is still RUNNING (the worker of its last run died in
     * between): SUCCEEDED with its result when every run succeeded, else FAILED.
     */
    void settle(String id) {
        SimulationJob job = simulations.findById(id).orElse(null);
        if (job == null || job.getStatus() != SimulationStatus.RUNNING) {
            return;
        }
        if (runs.countBySimulationIdAndStatusNot(id, SimulationStatus.SUCCEEDED) == 0) {
            completeIfDone(id, plans.of(job));
            return;
        }
        Instant now = clock.instant();
        String error = Problems.json("simulation-failed", "Simulation failed", 500, "a run of the simulation failed");
        if (simulations.finish(id, SimulationStatus.FAILED, job.getProgress(), error, job.getEvents(), now) == 1) {
            runs.cancelAll(id, now);
            publish(id, SimulationStatus.FAILED, now, job.getEvents(), 0, null);
        }
    }

    /**
     * Whether this instance should write a simulation's progress after one of its runs ended: at most once per
     * {@code schedsim.progress-interval} per simulation. A sweep of small runs ended a run every few milliseconds,
     * and each progress write averages over all the simulation's runs. The end writes the final figures regardless.
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
    int finishRuns(List<Finished> finished, String worker, Instant now) {
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
    boolean succeed(String id, String result, long events, Instant now) {
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
}
