package dev.schedsim.advice;

import dev.schedsim.json.Json;
import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.result.ResultDocument;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Advances every running advice, on every instance, a poll at a time: submits the step's simulation, follows its
 * progress, and when it has SUCCEEDED records its outcomes in the search and goes on or answers. All the state is
 * in the advice's row, so a restart loses nothing: the next poll finds the step's simulation (submitted again under
 * the same key, it is the same one). Two instances advancing one advice at once: the row's version lets one write,
 * the other's write fails and it looks again at its next poll.
 */
@Component
public class AdviceDriver {
    private static final Logger log = LoggerFactory.getLogger(AdviceDriver.class);

    private final Advices advices;
    private final AdviceSteps steps;
    private final TransactionTemplate transactions;
    private final Clock clock;

    AdviceDriver(Advices advices, AdviceSteps steps, TransactionTemplate transactions, Clock clock) {
        this.advices = advices;
        this.steps = steps;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** The first state of an accepted advice request. */
    public static String startState(AdviceSpec spec) {
        AdviceSpec.Search s = spec.search();
        return Json.STORED.writeValueAsString(AdviceSearch.start(s.quotaUs().min(), s.quotaUs().max(), s.resolutionUs(),
                s.periodsUs(), s.burstsUs(), spec.workloads()));
    }

    /** The steps an advice can take at most (for progress). */
    static int maxSteps(AdviceSpec spec) {
        AdviceSpec.Search s = spec.search();
        return AdviceSearch.maxSteps(s.quotaUs().min(), s.quotaUs().max(), s.resolutionUs());
    }

    @Scheduled(fixedDelayString = "${schedsim.advice.poll-interval:250ms}")
    void poll() {
        List<Advice> running;
        try {
            running = advices.findByStatusOrderByCreatedAt(SimulationStatus.RUNNING);
        } catch (DataAccessException e) {
            return; // the database is away: the next poll
        }
        for (Advice a : running) {
            try {
                transactions.executeWithoutResult(tx -> advices.findById(a.getId()).ifPresent(this::advance));
            } catch (OptimisticLockingFailureException e) {
                // another instance advanced it meanwhile
            } catch (DataAccessException e) {
                log.debug("advice {}: database error, next poll", a.getId(), e);
            } catch (RuntimeException e) {
                log.warn("advice {} failed", a.getId(), e);
                fail(a.getId(), e.getMessage());
            }
        }
    }

    private void fail(String id, String message) {
        try {
            transactions.executeWithoutResult(tx -> advices.findById(id).ifPresent(a -> {
                a.finish(SimulationStatus.FAILED, null, problem(String.valueOf(message)), clock.instant());
                advices.save(a);
            }));
        } catch (RuntimeException ignored) {
            // the next poll meets it again
        }
    }

    /** One poll of one running advice. */
    void advance(Advice a) {
        if (a.getStatus() != SimulationStatus.RUNNING) {
            return;
        }
        AdviceSpec spec = Json.STORED.readValue(a.getRequestJson(), AdviceSpec.class);
        AdviceSearch.State s = Json.STORED.readValue(a.getStateJson(), AdviceSearch.State.class);
        int max = maxSteps(spec);
        List<AdviceSearch.Setting> next = AdviceSearch.next(s);
        if (a.getSimulationId() == null) {
            String name = "advice-" + a.getId().substring(0, 8) + "-step" + (s.step() + 1);
            // (an observed advice's current setting is what was observed: its first step is the settings alone)
            String sim = steps.submit(spec, next, s.step() == 0 && spec.observed() == null, name, "advice-" + a.getId() + "-step-" + s.step(),
                    a.getOwner());
            if (sim != null) {
                a.step(a.getStateJson(), sim, (double) s.step() / max);
                advices.save(a);
            }
            return;
        }
        AdviceSteps.Step step = steps.poll(a.getSimulationId());
        if (step == null) {
            a.finish(SimulationStatus.FAILED, null, problem("The simulation of step " + (s.step() + 1)
                    + " (" + a.getSimulationId() + ") was deleted"), clock.instant());
            advices.save(a);
            return;
        }
        switch (step.status()) {
            case QUEUED, RUNNING -> {
                double p = (s.step() + step.progress()) / max;
                if (p - a.getProgress() >= 0.01) {
                    a.progress(p);
                    advices.save(a);
                }
            }
            case SUCCEEDED -> {
                AdviceSearch.State after = record(spec, s, next, step.result());
                if (AdviceSearch.finished(after)) {
                    AdviceAnswer answer = AdviceApply.answer(spec, after, currentCpuMax(spec), currentBurst(spec));
                    a.step(Json.STORED.writeValueAsString(after), a.getSimulationId(), 1);
                    a.finish(SimulationStatus.SUCCEEDED, Json.STORED.writeValueAsString(answer), null, clock.instant());
                } else {
                    a.step(Json.STORED.writeValueAsString(after), null, (double) after.step() / max);
                }
                advices.save(a);
            }
            case FAILED, CANCELLED -> {
                a.finish(SimulationStatus.FAILED, null, step.errorJson() != null ? step.errorJson()
                        : problem("The simulation of step " + (s.step() + 1) + " was " + step.status()),
                        clock.instant());
                advices.save(a);
            }
        }
    }

    /** The step's outcomes recorded in the search (and the request's own setting's, from the first step). */
    private static AdviceSearch.State record(AdviceSpec spec, AdviceSearch.State s, List<AdviceSearch.Setting> next,
                                             ResultDocument result) {
        List<AdviceSearch.Outcome> outcomes = next.stream()
                .map(st -> AdviceEvaluation.evaluate(spec, st, variant(result, st.label()).orElseThrow(
                        () -> new IllegalStateException("the step's result has no variant " + st.label()))))
                .toList();
        AdviceSearch.State after = AdviceSearch.record(s, outcomes);
        if (s.step() == 0) {
            Optional<ResultDocument.Variant> current = variant(result, AdviceSteps.CURRENT);
            if (current.isPresent()) {
                after = after.withCurrent(AdviceEvaluation.evaluate(spec, new AdviceSearch.Setting(-1, -1, 0),
                        current.get()));
            }
            Optional<ResultDocument.Variant> unlimited = variant(result, AdviceSteps.UNLIMITED);
            if (unlimited.isPresent()) {
                after = after.withUnlimited(AdviceEvaluation.evaluate(spec, new AdviceSearch.Setting(-1, -1, 0),
                        unlimited.get()));
            }
        }
        return after;
    }

    private static Optional<ResultDocument.Variant> variant(ResultDocument r, String label) {
        return r.variants().stream().filter(v -> v.label().equals(label)).findFirst();
    }

    /** The sized cgroup's cpu.max in the request, "max" when it has none. */
    static String currentCpuMax(AdviceSpec spec) {
        return sized(spec).path("cpuMax").asString("max");
    }

    private static long currentBurst(AdviceSpec spec) {
        return sized(spec).path("cpuMaxBurst").asLong(0);
    }

    /** The sized cgroup's entry in the request (a missing node when the request lists none: not after the rules). */
    private static tools.jackson.databind.JsonNode sized(AdviceSpec spec) {
        for (tools.jackson.databind.JsonNode c : spec.request().path("cgroups")) {
            if (c.path("path").asString().equals(spec.cgroup())) {
                return c;
            }
        }
        return tools.jackson.databind.node.MissingNode.getInstance();
    }

    private static String problem(String detail) {
        return Json.STORED.writeValueAsString(java.util.Map.of("title", "Advice failed", "detail", detail));
    }

    /** Cancels a running advice and its step's simulation; false when it had already ended. */
    public boolean cancel(String id) {
        for (int attempt = 0; ; attempt++) {
            try {
                return cancelOnce(id);
            } catch (OptimisticLockingFailureException e) {
                if (attempt >= 20) { // (a poll advanced it meanwhile: read it again)
                    throw e;
                }
            }
        }
    }

    private boolean cancelOnce(String id) {
        Boolean done = transactions.execute(tx -> advices.findById(id).map(a -> {
            if (a.getStatus() != SimulationStatus.RUNNING) {
                return false;
            }
            a.finish(SimulationStatus.CANCELLED, null, null, clock.instant());
            advices.save(a);
            if (a.getSimulationId() != null) {
                steps.cancel(a.getSimulationId());
            }
            return true;
        }).orElse(false));
        return Boolean.TRUE.equals(done);
    }
}
