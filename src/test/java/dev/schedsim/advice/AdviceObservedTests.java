package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.http.RequestReader;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.simulations.RequestValidator;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/**
 * Advice from observed counters: windows the engine itself produced at a known workload are fitted back (the
 * fitting range holds that workload), the advice answered through the API meets the objective for it, and bad
 * counters are 400s that say how to fix them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:advice-observed;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms",
        "schedsim.progress-interval=50ms", "schedsim.advice.poll-interval=20ms"})
class AdviceObservedTests extends ServiceTest {
    /** The workload observed: 3 threads, 7 ms of work every 20 ms (1.05 CPUs), not a point of the fit's grid. */
    static final ObservedFamily.Candidate KNOWN = new ObservedFamily.Candidate(7_000, 12_950);
    static final int THREADS = 3;
    static final SimulationRequest.TopologyRequest NODE = new SimulationRequest.TopologyRequest("validation-2c",
            null, null, null, null, null, null, null, null);

    @Autowired
    ObservedFit fit;
    @Autowired
    RequestValidator validator;
    @Autowired
    RequestReader reader;

    /** What cpu.stat would show for {@code c} at {@code cpuMax} over {@code windowMs}: the engine's run. */
    private ObservedCounters.Window observe(ObservedFamily.Candidate c, String cpuMax, long windowMs) {
        long[] qp = ObservedCounters.cpuMax(cpuMax, "x", new dev.schedsim.http.Violations());
        ObservedCounters.Window at = new ObservedCounters.Window(qp[0], qp[1], windowMs * 1000, 1, 0, null, 1);
        var plan = validator.accept(reader.read(ObservedFit.request(c, at, THREADS, NODE), SimulationRequest.class))
                .plan();
        Report r = Engine.run(plan.variants().get(0).spec(), 7, plan.eventBudget(), RunControl.NONE);
        Report.CpuStat s = r.cgroups().stream().filter(g -> g.path().equals(ObservedFit.CGROUP)).findFirst()
                .orElseThrow().cpuStat();
        return new ObservedCounters.Window(qp[0], qp[1], r.simulatedUs(), s.nrPeriods(), s.nrThrottled(),
                s.throttledUsec(), s.usageUsec());
    }

    /** The known workload's windows at a too-small limit and at one it is not throttled at. */
    private List<ObservedCounters.Window> knownWindows() {
        return List.of(observe(KNOWN, "60000 100000", 5000), observe(KNOWN, "110000 100000", 5000));
    }

    private static String posted(List<ObservedCounters.Window> windows) {
        StringBuilder b = new StringBuilder("[");
        for (ObservedCounters.Window w : windows) {
            b.append(b.length() > 1 ? ", " : "").append(String.format(java.util.Locale.ROOT, "{\"cpuMax\": \"%s\", "
                    + "\"windowMs\": %d, \"nrPeriods\": %d, \"nrThrottled\": %d, \"throttledUsec\": %d, "
                    + "\"usageUsec\": %d}", w.cpuMax(), w.windowUs() / 1000, w.nrPeriods(), w.nrThrottled(),
                    w.throttledUsec(), w.usageUsec()));
        }
        return b.append("]").toString();
    }

    private static String advice(String observed, String more) {
        return "{\"observed\": " + observed + ", \"threads\": 3, \"topology\": {\"preset\": \"validation-2c\"}, "
                + "\"objective\": {\"maxThrottledPeriodsPct\": 10}" + more + "}";
    }

    @Test
    void windowsOfAKnownWorkloadFitARangeThatHoldsIt() {
        ObservedFit.Result r = fit.fit(knownWindows(), THREADS, NODE);
        List<ObservedFit.Tried> fitting = r.fitting();
        assertThat(fitting).isNotEmpty();
        assertThat(r.tried().size()).isGreaterThan(fitting.size()); // (the throttled window rules most out)
        double known = KNOWN.demandCpus(THREADS);
        // ordered by demand: the fitting range of demands holds the known one (within the grid's refinement)
        assertThat(fitting.get(0).demandCpus()).isLessThanOrEqualTo(known * 1.02);
        assertThat(fitting.get(fitting.size() - 1).demandCpus()).isGreaterThanOrEqualTo(known * 0.98);
        for (ObservedFit.Tried t : fitting) {
            assertThat(t.score()).isLessThanOrEqualTo(1);
            assertThat(t.windows()).hasSize(2);
        }
    }

    /**
     * The advisor's real-kernel example (AdviceExamples.ADVICE_OBSERVED: 42 of 50 periods throttled at 0.598 CPUs
     * of a 0.6-CPU quota) sits on the knife edge of the throttled share: it is reproduced, by the grid or by the
     * bisection between the candidates that straddle it.
     */
    @Test
    void theRealKernelExampleOnTheKnifeEdgeIsFitted() {
        ObservedCounters.Window w = new ObservedCounters.Window(60_000, 100_000, 5_026_000, 50, 42, 67_557L,
                3_004_795);
        ObservedFit.Result r = fit.fit(List.of(w), THREADS, NODE);
        assertThat(r.fitting()).as(r.tried().toString()).isNotEmpty();
        assertThat(r.method()).contains("bisected");
    }

    /**
     * Through the API: the counters alone give an answer whose range spans the fitting workloads' own answers, and
     * the workload that produced the counters, simulated at the answer without the advisor, meets the objective.
     */
    @Test
    void anAdviceFromCountersMeetsTheObjectiveForTheWorkloadBehindThem() {
        HttpResponse<String> r = http.post("/api/v1/advice", advice(posted(knownWindows()), ""));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode a = http.awaitAdvice(Http.json(r).path("id").asString());
        assertThat(a.path("status").asString()).as(a.toString()).isEqualTo("SUCCEEDED");
        JsonNode o = a.path("observed");
        assertThat(o.path("family").asString()).startsWith("periodic: 3 threads");
        assertThat(o.path("fitting").asInt()).isPositive();
        assertThat(o.path("workloads").size()).isBetween(1, o.path("fitting").asInt());
        long quota = a.path("recommendation").path("quotaUs").asLong();
        assertThat(o.path("quotaUs").path("max").asLong()).isEqualTo(quota);
        assertThat(o.path("quotaUs").path("min").asLong()).isLessThanOrEqualTo(quota);
        assertThat(quota).isGreaterThan(60_000); // the observed limit throttled
        assertThat(a.path("summary").asString()).contains("candidates reproduced the counters");
        for (JsonNode c : a.path("candidates")) {
            assertThat(c.has("workload")).isTrue();
        }

        String sim = "{\"topology\": {\"preset\": \"validation-2c\"}, \"cgroups\": [{\"path\": \"/w\", "
                + "\"cpuMax\": \"" + quota + " 100000\"}], \"workloads\": [{\"name\": \"w\", \"cgroup\": \"/w\", "
                + "\"type\": \"periodic\", \"threads\": 3, \"runUs\": " + KNOWN.runUs() + ", \"sleepUs\": "
                + KNOWN.sleepUs() + "}], \"durationMs\": 5000, \"seed\": 42, \"repetitions\": 2}";
        HttpResponse<String> s = http.post("/api/v1/simulations", sim);
        assertThat(s.statusCode()).as(s.body()).isEqualTo(202);
        JsonNode done = http.awaitFinished(Http.json(s).path("id").asString());
        for (JsonNode run : done.path("result").path("variants").get(0).path("runs")) {
            JsonNode st = run.path("cgroups").findParent("nrPeriods");
            for (JsonNode c : run.path("cgroups")) {
                if (c.path("path").asString().equals("/w")) {
                    st = c.path("cpuStat");
                }
            }
            assertThat(100 * st.path("nrThrottled").asDouble() / st.path("nrPeriods").asDouble())
                    .as("the known workload at the answer").isLessThanOrEqualTo(10);
        }
    }

    /** cAdvisor's names, increases over the window in its units, read as the cpu.stat ones. */
    @Test
    void prometheusCountersAreReadAsCpuStats() {
        String prom = "[{\"cpuMax\": \"60000 100000\", \"windowMs\": 5000, \"container_cpu_cfs_periods_total\": 50, "
                + "\"container_cpu_cfs_throttled_periods_total\": 42, \"container_cpu_cfs_throttled_seconds_total\": "
                + "0.0676, \"container_cpu_usage_seconds_total\": 3.0048}]";
        HttpResponse<String> r = http.post("/api/v1/advice", advice(prom, ", \"search\": {\"quotaUs\": {\"min\": "
                + "50000, \"max\": 120000}}"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode w = Http.json(r).path("request").path("observed").path("fit").path("observed").get(0);
        assertThat(w.path("nrPeriods").asLong()).isEqualTo(50);
        assertThat(w.path("nrThrottled").asLong()).isEqualTo(42);
        assertThat(w.path("throttledUsec").asLong()).isEqualTo(67_600);
        assertThat(w.path("usageUsec").asLong()).isEqualTo(3_004_800);
        assertThat(w.path("windowUs").asLong()).isEqualTo(5_000_000);
        http.post("/api/v1/advice/" + Http.json(r).path("id").asString() + "/cancel", "");
    }

    private void badRequest(String body, String field, String... says) {
        HttpResponse<String> r = http.post("/api/v1/advice", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.body()).as(r.body()).contains(field).contains(says);
    }

    @Test
    void countersThatCannotBeRightAreNamedWithTheFix() {
        String w = "{\"cpuMax\": \"60000 100000\", \"windowMs\": 5000, \"nrPeriods\": 50, \"nrThrottled\": 25, "
                + "\"usageUsec\": 2984000}";
        badRequest(advice("[" + w.replace("\"nrThrottled\": 25", "\"nrThrottled\": 51") + "]", ""),
                "observed[0].nrThrottled", "cannot exceed nrPeriods (50)");
        badRequest(advice("[" + w.replace("\"windowMs\": 5000", "\"windowMs\": 50") + "]", ""),
                "observed[0].windowMs", "shorter than one period (100000 µs)");
        badRequest(advice("[" + w.replace("\"windowMs\": 5000", "\"windowMs\": 1000") + "]", ""),
                "observed[0].nrPeriods", "the window holds at most 11 periods");
        badRequest(advice("[" + w.replace("\"nrPeriods\": 50", "\"nrPeriods\": 50, "
                + "\"container_cpu_cfs_periods_total\": 50") + "]", ""), "observed[0].nrPeriods",
                "give nrPeriods or container_cpu_cfs_periods_total, not both");
        badRequest(advice("[" + w.replace("\"usageUsec\": 2984000", "\"usageUsec\": 9000000") + "]", ""),
                "observed[0].usageUsec", "quota allow");
        badRequest(advice("[" + w.replace("60000 100000", "60 ms") + "]", ""), "observed[0].cpuMax",
                "is not a cpu.max");
        badRequest(advice("[" + w.replace("\"nrThrottled\": 25, ", "") + "]", ""), "observed[0].nrThrottled",
                "required at a limit");
        badRequest(advice("[]", ""), "observed", "give at least one window");
        badRequest("{\"observed\": [" + w + "], \"objective\": {\"maxThrottledPeriodsPct\": 10}}", "threads",
                "required with observed");
        badRequest(advice("[" + w + "]", "").replace("\"topology\": {\"preset\": \"validation-2c\"}, ", ""),
                "topology", "required with observed");
        badRequest(advice("[" + w + "]", "").replace("{\"maxThrottledPeriodsPct\": 10}",
                "{\"maxP99WakeupLatencyUs\": 500}"), "objective", "only maxThrottledPeriodsPct");
        badRequest(advice("[" + w + "]", ", \"cgroup\": \"/web\""), "cgroup", "leave it out with observed");
        badRequest(advice("[" + w.replace("\"nrPeriods\": 50", "\"nrPeriods\": \"fifty\"") + "]", ""),
                "nrPeriods", "Wrong type");
        // a described advice with the observed-only fields
        String described = AdviceExamples.ADVICE.replace("\"repetitions\": 2", "\"repetitions\": 2, \"threads\": 3");
        badRequest(described, "threads", "goes with observed");
    }

    /** Windows no workload of the family reproduces: a 400 naming the closest candidate and what to check. */
    @Test
    void windowsNothingFitsAreA400WithTheClosest() {
        // unthrottled at 0.3 CPUs, yet fully throttled at 0.5 CPUs of quota: not one workload
        String w = "[{\"cpuMax\": \"max\", \"windowMs\": 5000, \"usageUsec\": 1500000}, "
                + "{\"cpuMax\": \"50000 100000\", \"windowMs\": 5000, \"nrPeriods\": 50, \"nrThrottled\": 50, "
                + "\"usageUsec\": 2500000}]";
        badRequest(advice(w, ""), "observed", "contradict each other");
        // throttled in every period yet well short of the quota: a throttled periodic workload uses its quota
        String starved = "[{\"cpuMax\": \"60000 100000\", \"windowMs\": 5000, \"nrPeriods\": 50, "
                + "\"nrThrottled\": 50, \"usageUsec\": 2500000}]";
        badRequest(advice(starved, ""), "observed", "no workload of the family", "The closest", "Check threads");
    }
}
