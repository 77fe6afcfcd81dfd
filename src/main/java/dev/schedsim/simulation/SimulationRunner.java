package dev.schedsim.simulation;

import dev.schedsim.engine.BudgetExceededException;
import dev.schedsim.engine.Engine;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunCancelledException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs one claimed job: every variant × repetition through the engine, then stores the result document
 * (SUCCEEDED), an error problem (FAILED) or nothing (CANCELLED; or back to QUEUED when the service stops).
 */
@Component
class SimulationRunner {
    private static final Logger log = LoggerFactory.getLogger(SimulationRunner.class);
    static final String PROBLEM_BASE = "https://schedsim.dev/problems/";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final SimulationJobs simulations;
    private final SimulationQueue queue;
    private final SimulationPlanner planner;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final SchedsimProperties properties;

    SimulationRunner(SimulationJobs simulations, SimulationQueue queue, SimulationPlanner planner,
                     ApplicationEventPublisher events, Clock clock, SchedsimProperties properties) {
        this.simulations = simulations;
        this.queue = queue;
        this.planner = planner;
        this.events = events;
        this.clock = clock;
        this.properties = properties;
    }

    void run(String id, String worker, BooleanSupplier stopping) {
        Instant start = clock.instant();
        AtomicBoolean cancelled = queue.started(id);
        JobControl control = null;
        long simulatedUs = 0;
        try {
            SimulationJob job = simulations.findById(id).orElseThrow();
            SimulationPlan plan = planner.plan(job.getRequestJson());
            control = new JobControl(simulations, id, worker, clock, properties.progressInterval().toMillis(),
                    cancelled, stopping, plan.runs());
            List<List<Report>> reports = new ArrayList<>();
            int index = 0;
            for (SimulationPlan.Variant v : plan.variants()) {
                List<Report> runs = new ArrayList<>();
                for (int r = 0; r < plan.repetitions(); r++) {
                    control.startRun(index++, v.spec().durationUs());
                    if (control.cancelled()) {
                        throw new RunCancelledException();
                    }
                    Report report = Engine.run(v.spec(), plan.seed() + r, plan.eventBudget(), control);
                    control.endRun(report.events());
                    simulatedUs += report.simulatedUs();
                    runs.add(report);
                }
                reports.add(runs);
            }
            String result = ResultDocument.build(plan, reports);
            int n = simulations.finish(id, worker, SimulationStatus.SUCCEEDED, 1.0, result, null, control.events(),
                    clock.instant());
            publish(id, n == 1 ? SimulationStatus.SUCCEEDED : SimulationStatus.CANCELLED, start, control,
                    simulatedUs, n == 1 ? result : null);
        } catch (RunCancelledException e) {
            if (stopping.getAsBoolean() && !cancelled.get()) {
                simulations.requeueOwn(id, worker);
                log.info("simulation {} requeued at shutdown", id);
            } else {
                publish(id, SimulationStatus.CANCELLED, start, control, simulatedUs, null);
            }
        } catch (BudgetExceededException e) {
            ObjectNode error = problem("budget-exceeded", "Event budget exceeded", 422,
                    e.getMessage() + "; simulate less time, fewer threads or a smaller machine");
            error.put("limit", "schedsim.limits.max-events");
            error.put("value", e.budget());
            fail(id, worker, error, start, control, simulatedUs);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            log.warn("simulation {} failed", id, e);
            ObjectNode error = problem("simulation-failed", "Simulation failed", 500,
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            fail(id, worker, error, start, control, simulatedUs);
        } finally {
            queue.ended(id);
        }
    }

    private void fail(String id, String worker, ObjectNode error, Instant start, JobControl control,
                      long simulatedUs) {
        long events = control == null ? 0 : control.events();
        int n = simulations.finish(id, worker, SimulationStatus.FAILED, control == null ? 0 : control.fraction(),
                null, JSON.writeValueAsString(error), events, clock.instant());
        publish(id, n == 1 ? SimulationStatus.FAILED : SimulationStatus.CANCELLED, start, control, simulatedUs,
                null);
    }

    private void publish(String id, SimulationStatus outcome, Instant start, JobControl control, long simulatedUs,
                         String result) {
        String label = simulations.findById(id).map(SimulationJob::label).orElse(id);
        events.publishEvent(new SimulationFinished(id, label, outcome, Duration.between(start, clock.instant()),
                control == null ? 0 : control.events(), simulatedUs, result));
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
