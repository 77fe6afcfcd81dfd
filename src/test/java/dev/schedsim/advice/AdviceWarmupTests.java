package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.LimitExceededException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.Violation;
import dev.schedsim.json.Json;
import dev.schedsim.request.CostEstimate;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.simulations.SimulationExamples;
import dev.schedsim.simulations.StandalonePlans;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Warm-up runs in an advice: a pod advice's {@code warmup} and a request's own {@code request.warmup} reach every
 * variant of the steps' simulations (the engine's EngineSpec.Warmup), with the simulation request's rules and
 * messages for bad values; the first step's cost counts them (422 where the same advice without them fits); a
 * top-level warmup beside a request, or with observed counters, is a 400 that says where it goes.
 */
class AdviceWarmupTests {
    private static final RequestReader READER = StandalonePlans.reader();

    private static AdviceRules rules(Limits limits) {
        return new AdviceRules(StandalonePlans.validator(limits), READER, steps(), limits,
                new ObservedAdvice(null, READER, limits));
    }

    private static AdviceRules rules() {
        return rules(new Limits(null, null, null, null, null, null, null, null, null, null, null, null, null));
    }

    /** Only stepRequest is used: it writes a step's simulation request, which the validator then plans. */
    private static AdviceStepsAdapter steps() {
        return new AdviceStepsAdapter(null, null, READER, null);
    }

    /** SimulationExamples.KUBERNETES's pod, its web container sized for at most 10 % throttled periods. */
    private static ObjectNode podAdvice(String warmup) {
        ObjectNode k = (ObjectNode) Json.REQUEST.readTree(SimulationExamples.KUBERNETES).path("kubernetes").deepCopy();
        k.put("container", "web");
        ObjectNode a = Json.REQUEST.createObjectNode();
        a.set("kubernetes", k);
        a.put("durationMs", 200);
        a.set("objective", Json.REQUEST.readTree("{\"maxThrottledPeriodsPct\": 10}"));
        a.set("search", Json.REQUEST.readTree("{\"quotaUs\": {\"min\": 20000, \"max\": 200000}}"));
        if (warmup != null) {
            a.set("warmup", Json.REQUEST.readTree(warmup));
        }
        return a;
    }

    /** AdviceExamples.ADVICE with {@code warmup} in its request. */
    private static ObjectNode requestAdvice(String warmup) {
        ObjectNode a = (ObjectNode) Json.REQUEST.readTree(AdviceExamples.ADVICE);
        ((ObjectNode) a.path("request")).set("warmup", Json.REQUEST.readTree(warmup));
        return a;
    }

    private static AdviceSpec accept(AdviceRules rules, JsonNode advice) {
        return rules.accept(READER.read(advice.toString(), AdviceRequest.class));
    }

    /** The plan of the first step's simulation (the request as it is, unlimited, and the first settings). */
    private static SimulationPlan firstStep(AdviceSpec spec) {
        AdviceSpec.Search s = spec.search();
        List<AdviceSearch.Setting> first = AdviceSearch.next(AdviceSearch.start(s.quotaUs().min(),
                s.quotaUs().max(), s.resolutionUs(), s.periodsUs(), s.burstsUs(), spec.workloads()));
        return StandalonePlans.plan(steps().stepRequest(spec, first, true, "warmup-step"));
    }

    private static void everyVariantWarms(SimulationPlan plan, EngineSpec.Warmup expected) {
        assertThat(plan.variants()).hasSizeGreaterThan(2);
        for (SimulationPlan.Variant v : plan.variants()) {
            assertThat(v.spec().warmup()).as(v.label()).isEqualTo(expected);
        }
    }

    @Test
    void aPodAdvicesWarmupReachesEveryCandidate() {
        AdviceSpec spec = accept(rules(), podAdvice("{\"runs\": 2, \"gapMs\": 300}"));
        assertThat(spec.request().path("warmup").path("runs").asInt()).isEqualTo(2);
        everyVariantWarms(firstStep(spec), new EngineSpec.Warmup(2, 300_000));
        // defaults as in a simulation request: one run, no gap
        everyVariantWarms(firstStep(accept(rules(), podAdvice("{}"))), new EngineSpec.Warmup(1, 0));
        // and without one, none
        everyVariantWarms(firstStep(accept(rules(), podAdvice(null))), EngineSpec.Warmup.NONE);
    }

    /** Every container advised at once: each one's advice keeps the warm-up. */
    @Test
    void eachContainerOfAPodKeepsTheWarmup() {
        AdviceRequest all = READER.read(podAdvice("{\"runs\": 1, \"gapMs\": 40}").toString(), AdviceRequest.class);
        AdviceSpec shipper = rules().accept(all.withContainer("log-shipper"));
        assertThat(shipper.container()).isEqualTo("log-shipper");
        everyVariantWarms(firstStep(shipper), new EngineSpec.Warmup(1, 40_000));
    }

    @Test
    void aRequestsOwnWarmupReachesEveryCandidate() {
        AdviceSpec spec = accept(rules(), requestAdvice("{\"runs\": 1, \"gapMs\": 500}"));
        everyVariantWarms(firstStep(spec), new EngineSpec.Warmup(1, 500_000));
    }

    private static List<Violation> violations(AdviceRules rules, JsonNode advice) {
        Throwable t = catchThrowable(() -> accept(rules, advice));
        assertThat(t).as(advice.toString()).isInstanceOf(InvalidRequestException.class);
        return ((InvalidRequestException) t).violations();
    }

    /** The simulation request's own violation for {@code warmup} (field and message). */
    private static Violation simulations(String warmup) {
        ObjectNode r = (ObjectNode) Json.REQUEST.readTree(SimulationExamples.WARMUP);
        r.set("warmup", Json.REQUEST.readTree(warmup));
        Throwable t = catchThrowable(() -> StandalonePlans.accept(r.toString()));
        assertThat(t).isInstanceOf(InvalidRequestException.class);
        List<Violation> v = ((InvalidRequestException) t).violations();
        assertThat(v).hasSize(1);
        return v.get(0);
    }

    @Test
    void badWarmupsAreTheSimulationRequestsOwn400s() {
        for (String bad : List.of("{\"runs\": 6}", "{\"runs\": -1}", "{\"gapMs\": -1}", "{\"gapMs\": 60001}")) {
            Violation sim = simulations(bad);
            assertThat(sim.message()).as(bad).startsWith("must be in 0..");
            // beside a pod: the same field and message
            assertThat(violations(rules(), podAdvice(bad))).as(bad).containsExactly(sim);
            // in the request: the same, named under request
            assertThat(violations(rules(), requestAdvice(bad))).as(bad)
                    .containsExactly(new Violation("request." + sim.field(), sim.message()));
        }
    }

    @Test
    void aWarmupBesideARequestOrWithObservedSaysWhereItGoes() {
        ObjectNode beside = (ObjectNode) Json.REQUEST.readTree(AdviceExamples.ADVICE);
        beside.set("warmup", Json.REQUEST.readTree("{\"runs\": 1}"));
        List<Violation> v = violations(rules(), beside);
        assertThat(v).extracting(Violation::field).containsExactly("warmup");
        assertThat(v.get(0).message()).contains("request.warmup");

        ObjectNode observed = (ObjectNode) Json.REQUEST.readTree(AdviceExamples.ADVICE_OBSERVED);
        observed.set("warmup", Json.REQUEST.readTree("{\"runs\": 1}"));
        v = violations(rules(), observed);
        assertThat(v).extracting(Violation::field).containsExactly("warmup");
        assertThat(v.get(0).message()).contains("leave it out with observed", "request.warmup");
    }

    /**
     * Each warm-up run costs a reported run for every candidate and repetition: an advice whose first step fits
     * schedsim.limits.max-submission-events with one warm-up run per candidate is refused (422) with two.
     */
    @Test
    void warmupRunsCountInTheFirstStepsCost() {
        SimulationPlan cold = firstStep(accept(rules(), podAdvice(null)));
        double events = 0;
        for (SimulationPlan.Variant v : cold.variants()) {
            events += CostEstimate.events(v.spec()) * cold.repetitions();
        }
        assertThat(events).isPositive();
        long max = (long) Math.ceil(2 * events) + 1;
        AdviceRules held = rules(new Limits(null, null, null, null, null, null, null, null, null, null, null, max,
                null));
        assertThat(accept(held, podAdvice(null)).request().path("warmup").isMissingNode()).isTrue();
        assertThat(accept(held, podAdvice("{\"runs\": 1}")).request().path("warmup").path("runs").asInt())
                .isEqualTo(1);
        Throwable t = catchThrowable(() -> accept(held, podAdvice("{\"runs\": 2}")));
        assertThat(t).isInstanceOf(LimitExceededException.class);
        assertThat(t.getMessage()).startsWith("schedsim.limits.max-submission-events");
    }
}
