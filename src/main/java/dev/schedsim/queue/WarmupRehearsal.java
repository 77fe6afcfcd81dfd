package dev.schedsim.queue;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.json.Json;
import dev.schedsim.request.SimulationPlan;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A run of a request as a job runs it, for the idle workers' JIT warm-up ({@link EngineWarmup}): plan, engine,
 * report JSON, result document, then the job's own statements on a simulation row of its own that is never
 * committed. A cold service spent most of a small job's time in these (JDBC, Hibernate, the database), not in the
 * engine.
 */
@Component
class WarmupRehearsal {

    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationPlanner planner;
    private final StoredPlans plans;
    private final SimulationCompletion completion;
    private final Clock clock;
    private final TransactionTemplate transactions;

    WarmupRehearsal(SimulationJobs simulations, SimulationRuns runs, SimulationPlanner planner,
                    StoredPlans plans, SimulationCompletion completion, Clock clock, TransactionTemplate transactions) {
        this.simulations = simulations;
        this.runs = runs;
        this.planner = planner;
        this.plans = plans;
        this.completion = completion;
        this.clock = clock;
        this.transactions = transactions;
    }

    /** Rehearses one request; the engine stops early when {@code stopping} turns true. Returns the events run. */
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
        String reportJson = Json.STORED.writeValueAsString(report);
        String result = SimulationCompletion.result(plan, List.of(List.of(report)));
        rehearseStorage(requestJson, plan, worker, report, reportJson, result);
        return report.events();
    }

    /**
     * The statements of a one-run job, from submission to finish (insert, claim reads and updates, heartbeat,
     * finish with the report and result inserts, flushed so that they execute), on a row of its own in a
     * transaction that is rolled back: nobody, on this instance or another, ever sees it, and no metric or event is
     * published.
     */
    private void rehearseStorage(String requestJson, SimulationPlan plan, String worker, Report report,
                                 String reportJson, String result) {
        transactions.executeWithoutResult(tx -> {
            tx.setRollbackOnly();
            Instant now = clock.instant();
            String id = UUID.randomUUID().toString();
            simulations.saveAndFlush(new SimulationJob(id, "warmup", now, requestJson, "warmup", null));
            plans.saveAndFlush(new StoredPlan(id, StoredPlan.encode(plan.toJson())));
            runs.saveAllAndFlush(List.of(new SimulationRun(id, 0, now)));
            SimulationQueue.Claim claim = new SimulationQueue.Claim(SimulationRun.id(id, 0), id, 0, plan);
            runs.nextQueued(1);
            runs.lockQueued(List.of(claim.runId()));
            runs.markRunning(List.of(claim.runId()), worker, now);
            simulations.markRunning(id, worker, now);
            plans.findById(id);
            runs.heartbeat(claim.runId(), worker, 0.5, report.events() / 2, now);
            completion.finishRuns(List.of(new SimulationCompletion.Finished(claim, report, reportJson, now)), worker,
                    now);
            completion.succeed(id, result, report.events(), now);
            runs.flush();
        });
    }
}
