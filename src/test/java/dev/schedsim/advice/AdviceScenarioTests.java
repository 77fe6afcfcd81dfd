package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The shipped advisor scenarios (issue 22, item 5) run by name through the real service to their answer, and the
 * answer checked by independent simulations that do not go through the advisor: at the recommendation every
 * repetition meets every figure of the objective, at the bracket one repetition misses one. The figures are read
 * off the plain result documents here, not the advisor's evaluation; the answers are not written down anywhere.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:advice-scenarios;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms",
        "schedsim.progress-interval=50ms", "schedsim.advice.poll-interval=20ms"})
class AdviceScenarioTests extends ServiceTest {
    static final String POD = "advice-burstable-pod";
    static final String BURST = "advice-latency-burst";

    private JsonNode scenario(String name) {
        HttpResponse<String> r = http.get("/api/v1/scenarios/" + name);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Http.json(r);
    }

    /** Runs an advisor scenario by name, as shipped, and waits for its answer. */
    private JsonNode runToAnswer(String name) {
        HttpResponse<String> r = http.post("/api/v1/scenarios/" + name + "/run", "");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String id = Http.json(r).path("id").asString();
        assertThat(r.headers().firstValue("Location")).contains("/api/v1/advice/" + id);
        JsonNode n = http.awaitAdvice(id);
        assertThat(n.path("status").asString()).as(n.toString()).isEqualTo("SUCCEEDED");
        assertThat(n.path("monotone").asBoolean()).as("monotone").isTrue();
        System.out.println("advice scenario " + name + ": " + n.path("summary").asString() + " (" + n.path("steps")
                + " steps, " + n.path("candidates").size() + " settings)");
        return n;
    }

    /** Each repetition's figures (the result's runs) of a plain simulation of {@code request}. */
    private List<JsonNode> runs(ObjectNode request) {
        HttpResponse<String> s = http.post("/api/v1/simulations", request.toString());
        assertThat(s.statusCode()).as(s.body()).isEqualTo(202);
        JsonNode done = http.awaitFinished(Http.json(s).path("id").asString());
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode variant = done.path("result").path("variants").get(0);
        List<JsonNode> out = new ArrayList<>();
        if (variant.path("runs").isArray() && !variant.path("runs").isEmpty()) {
            variant.path("runs").forEach(out::add);
        } else {
            out.add(variant);
        }
        assertThat(out).hasSize(request.path("repetitions").asInt());
        return out;
    }

    /**
     * The objective's figures a run misses, e.g. "throttledPeriodsPct 15.0 > 5.0": the cgroup's nr_throttled /
     * nr_periods, the workload's wakeup and request latency p99 and completion, each against its bound.
     */
    static List<String> misses(JsonNode objective, JsonNode run, String cgroup, String workload) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : run.path("cgroups")) {
            if (c.path("path").asString().equals(cgroup)) {
                JsonNode st = c.path("cpuStat");
                double pct = 100.0 * st.path("nrThrottled").asDouble() / Math.max(1, st.path("nrPeriods").asDouble());
                over(out, "throttledPeriodsPct", pct, objective.path("maxThrottledPeriodsPct"));
            }
        }
        for (JsonNode w : run.path("workloads")) {
            if (w.path("name").asString().equals(workload)) {
                over(out, "p99WakeupLatencyUs", w.path("wakeupLatencyUs").path("p99").asDouble(Double.NaN),
                        objective.path("maxP99WakeupLatencyUs"));
                over(out, "p99RequestLatencyUs", w.path("requestLatencyUs").path("p99").asDouble(Double.NaN),
                        objective.path("maxP99RequestLatencyUs"));
                over(out, "completionUs", w.path("completionUs").asDouble(Double.NaN),
                        objective.path("maxCompletionUs"));
            }
        }
        return out;
    }

    private static void over(List<String> out, String figure, double value, JsonNode bound) {
        if (bound.isNumber() && !(value <= bound.asDouble())) { // (a figure missing, NaN, misses too)
            out.add(figure + " " + value + " > " + bound.asDouble());
        }
    }

    /** Every run of the list meets the objective (a description of the misses otherwise). */
    private static void assertMet(String what, JsonNode objective, List<JsonNode> runs, String cgroup,
                                  String workload) {
        for (JsonNode run : runs) {
            assertThat(misses(objective, run, cgroup, workload)).as(what + ", seed " + run.path("seed")).isEmpty();
        }
    }

    /** Some run of the list misses the objective. */
    private static void assertMissed(String what, JsonNode objective, List<JsonNode> runs, String cgroup,
                                     String workload) {
        List<String> all = new ArrayList<>();
        runs.forEach(r -> all.addAll(misses(objective, r, cgroup, workload)));
        assertThat(all).as(what).isNotEmpty();
    }

    @Test
    void theAdvisorScenariosAreListedAsAdviceAndAreSwaggersExamples() {
        JsonNode list = Http.json(http.get("/api/v1/scenarios"));
        List<String> advice = new ArrayList<>();
        for (JsonNode s : list) {
            if (s.path("kind").asString().equals("advice")) {
                advice.add(s.path("name").asString());
            } else {
                assertThat(s.path("kind").asString()).isEqualTo("simulation");
            }
        }
        assertThat(advice).containsExactly(POD, BURST);
        // Swagger's examples of POST /api/v1/advice are the scenarios' requests, as shipped
        assertThat(scenario(POD).path("request")).isEqualTo(Http.JSON.readTree(AdviceExamples.ADVICE_BURSTABLE_POD));
        assertThat(scenario(BURST).path("request")).isEqualTo(Http.JSON.readTree(AdviceExamples.ADVICE_LATENCY_BURST));
        JsonNode examples = Http.json(http.get("/v3/api-docs")).path("paths").path("/api/v1/advice").path("post")
                .path("requestBody").path("content").path("application/json").path("examples");
        assertThat(examples.has(POD) && examples.has(BURST)).as(examples.toString()).isTrue();

        // an advice has no idempotency: a key is refused, not silently dropped; overrides are checked as the
        // advice's own fields
        HttpResponse<String> keyed = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/api/v1/scenarios/" + BURST + "/run")).header("Content-Type", "application/json")
                .header("Idempotency-Key", "k1").POST(HttpRequest.BodyPublishers.ofString("")));
        assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(400);
        assertThat(keyed.body()).contains("Idempotency-Key");
        HttpResponse<String> bad = http.post("/api/v1/scenarios/" + POD + "/run", "{ \"repetitions\": 0 }");
        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(400);
        assertThat(bad.body()).contains("\"repetitions\"");
    }

    /**
     * A Burstable pod throttled at low usage: the answer is a limits.cpu in millicores; the pod run again with its
     * web container's limits.cpu set to the answer meets the objective in every repetition, with the bracket's
     * millicores it does not. The current limit is throttled while the container's usage stays below it.
     */
    @Test
    void aBurstablePodThrottledAtLowUsageGetsALimitThatHoldsUpInIndependentRuns() {
        JsonNode shipped = scenario(POD).path("request");
        JsonNode a = runToAnswer(POD);
        JsonNode spec = Http.JSON.readTree(a.path("request").toString());
        String cgroup = spec.path("cgroup").asString();
        String workload = spec.path("workload").asString();
        JsonNode objective = shipped.path("objective");
        assertThat(cgroup).startsWith("/kubepods/burstable/pod").endsWith("/web");

        JsonNode rec = a.path("recommendation");
        assertThat(rec.path("cpuMaxBurst").asLong()).isZero();
        String millicores = rec.path("limitsCpu").asString();
        assertThat(millicores).matches("[0-9]+m");
        assertThat(rec.path("cpuMax").asString()).endsWith(" 100000"); // the kubelet's period
        JsonNode bracket = a.path("bracket");
        assertThat(bracket.path("met").asBoolean()).isFalse();
        long bracketQuota = Long.parseLong(bracket.path("cpuMax").asString().split(" ")[0]);
        assertThat(bracketQuota % 100).isZero(); // a whole number of millicores on the 100 ms period

        JsonNode current = a.path("current");
        assertThat(current.path("met").asBoolean()).isFalse();
        assertThat(current.path("cpuMax").asString()).isEqualTo("30000 100000"); // limits.cpu 300m

        // Independent runs: the pod as the user would apply it, limits.cpu set; the advice's seeds
        List<JsonNode> atRec = runs(pod(shipped, millicores));
        assertMet("limits.cpu " + millicores, objective, atRec, cgroup, workload);
        assertMissed("limits.cpu " + bracketQuota / 100 + "m (the bracket)", objective,
                runs(pod(shipped, bracketQuota / 100 + "m")), cgroup, workload);

        // At the shipped 300m, throttled at low usage: usage below the limit and below the answer's mean too
        List<JsonNode> atCurrent = runs(pod(shipped, "300m"));
        double seconds = shipped.path("durationMs").asDouble() / 1000;
        for (JsonNode run : atCurrent) {
            assertThat(misses(objective, run, cgroup, workload)).as("300m").isNotEmpty();
            double usageCpus = usageUs(run, cgroup) / 1e6 / seconds;
            assertThat(usageCpus).as("mean usage at 300m, CPUs").isLessThan(0.3 * 0.8);
        }
        double used = usageUs(atRec.get(0), cgroup) / 1e6 / seconds;
        assertThat(used).as("mean usage at the answer, CPUs")
                .isLessThan(Long.parseLong(millicores.replace("m", "")) / 1000.0 * 0.6);
    }

    /** The scenario's pod with web's limits.cpu set to {@code cpu}, as a simulation of the advice's seeds. */
    private static ObjectNode pod(JsonNode shipped, String cpu) {
        ObjectNode k = (ObjectNode) shipped.path("kubernetes").deepCopy();
        k.remove("container");
        for (JsonNode c : k.path("pod").path("spec").path("containers")) {
            if (c.path("name").asString().equals("web")) {
                ((ObjectNode) c.path("resources").path("limits")).put("cpu", cpu);
            }
        }
        ObjectNode r = Http.JSON.createObjectNode();
        r.set("kubernetes", k);
        r.put("durationMs", shipped.path("durationMs").asLong());
        r.put("seed", shipped.path("seed").asLong());
        r.put("repetitions", shipped.path("repetitions").asInt());
        return r;
    }

    private static double usageUs(JsonNode run, String cgroup) {
        for (JsonNode c : run.path("cgroups")) {
            if (c.path("path").asString().equals(cgroup)) {
                return c.path("cpuStat").path("usageUsec").asDouble();
            }
        }
        throw new AssertionError("no cgroup " + cgroup);
    }

    /**
     * Bursts where cpu.max.burst is the answer: among the searched bursts the recommendation's is not zero and its
     * quota is below every quota that passed without burst (read off the candidates); independent runs at the
     * recommended cpu.max and cpu.max.burst meet the objective, at the bracket and at the same cpu.max without the
     * burst they do not.
     */
    @Test
    void burstIsTheAnswerForALatencySensitiveServiceWithBursts() {
        JsonNode shipped = scenario(BURST).path("request");
        JsonNode a = runToAnswer(BURST);
        JsonNode objective = shipped.path("objective");
        String cgroup = shipped.path("cgroup").asString();
        String workload = shipped.path("workload").asString();

        JsonNode rec = a.path("recommendation");
        long burst = rec.path("cpuMaxBurst").asLong();
        long quota = rec.path("quotaUs").asLong();
        assertThat(burst).as("the answer's burst").isPositive();
        long leastWithoutBurst = Long.MAX_VALUE;
        for (JsonNode c : a.path("candidates")) {
            if (c.path("cpuMaxBurst").asLong() == 0 && c.path("met").asBoolean()) {
                leastWithoutBurst = Math.min(leastWithoutBurst,
                        Long.parseLong(c.path("cpuMax").asString().split(" ")[0]));
            }
        }
        assertThat(leastWithoutBurst).as("the smallest quota that passed without burst").isGreaterThan(quota);
        JsonNode bracket = a.path("bracket");
        assertThat(bracket.path("cpuMaxBurst").asLong()).isEqualTo(burst);
        assertThat(a.path("current").path("met").asBoolean()).isFalse();

        assertMet("cpu.max " + rec.path("cpuMax").asString() + " burst " + burst, objective,
                runs(limited(shipped, rec.path("cpuMax").asString(), burst)), cgroup, workload);
        assertMissed("the bracket " + bracket.path("cpuMax").asString(), objective,
                runs(limited(shipped, bracket.path("cpuMax").asString(), burst)), cgroup, workload);
        assertMissed("cpu.max " + rec.path("cpuMax").asString() + " without burst", objective,
                runs(limited(shipped, rec.path("cpuMax").asString(), 0)), cgroup, workload);
    }

    /** The scenario's request with the sized cgroup at {@code cpuMax} and {@code burst}, the advice's seeds. */
    private static ObjectNode limited(JsonNode shipped, String cpuMax, long burst) {
        ObjectNode r = (ObjectNode) shipped.path("request").deepCopy();
        for (JsonNode c : r.path("cgroups")) {
            if (c.path("path").asString().equals(shipped.path("cgroup").asString())) {
                ((ObjectNode) c).put("cpuMax", cpuMax).put("cpuMaxBurst", burst);
            }
        }
        r.put("repetitions", shipped.path("repetitions").asInt());
        return r;
    }
}
