package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.simulations.SimulationExamples;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The limits advisor through real HTTP on the real engine and queue: the shipped example's answer checked by
 * independent simulations at the recommendation (meets the objective in every repetition) and at the bracket
 * (does not), the current setting's figures, cancel, and bad input named by field.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:advice;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms",
        "schedsim.progress-interval=50ms", "schedsim.advice.poll-interval=20ms"})
class AdviceTests extends ServiceTest {
    /** The throttled share of /web's periods in each repetition of the example's request at {@code cpuMax}. */
    private double[] throttledPct(String cpuMax, int repetitions) {
        ObjectNode r = (ObjectNode) Http.JSON.readTree(AdviceExamples.ADVICE).path("request");
        ((ObjectNode) r.path("cgroups").get(0)).put("cpuMax", cpuMax);
        r.put("repetitions", repetitions);
        HttpResponse<String> s = http.post("/api/v1/simulations", r.toString());
        assertThat(s.statusCode()).as(s.body()).isEqualTo(202);
        JsonNode done = http.awaitFinished(Http.json(s).path("id").asString());
        JsonNode variant = done.path("result").path("variants").get(0);
        JsonNode runs = variant.path("runs");
        double[] out = new double[repetitions];
        for (int i = 0; i < repetitions; i++) {
            JsonNode stat = (repetitions > 1 ? runs.get(i) : variant).path("cgroups");
            for (JsonNode c : stat) {
                if (c.path("path").asString().equals("/web")) {
                    out[i] = 100.0 * c.path("cpuStat").path("nrThrottled").asDouble()
                            / Math.max(1, c.path("cpuStat").path("nrPeriods").asDouble());
                }
            }
        }
        return out;
    }

    @Test
    void theShippedExampleIsAnsweredAndTheAnswerHoldsUpInIndependentRuns() {
        HttpResponse<String> r = http.post("/api/v1/advice", AdviceExamples.ADVICE);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String id = Http.json(r).path("id").asString();
        assertThat(r.headers().firstValue("Location")).contains("/api/v1/advice/" + id);
        JsonNode a = http.awaitAdvice(id);
        assertThat(a.path("status").asString()).as(a.toString()).isEqualTo("SUCCEEDED");
        assertThat(a.path("progress").asDouble()).isEqualTo(1.0);
        JsonNode rec = a.path("recommendation");
        long quota = rec.path("quotaUs").asLong();
        assertThat(quota).isBetween(50_000L, 200_000L); // above the current half CPU, which throttles
        assertThat(rec.path("cpuMax").asString()).isEqualTo(quota + " 100000");
        assertThat(rec.path("limitsCpu").asString()).isEqualTo((quota * 1000 + 99_999) / 100_000 + "m");
        assertThat(rec.path("predicted").path("met").asBoolean()).isTrue();
        assertThat(a.path("current").path("cpuMax").asString()).isEqualTo("50000 100000");
        assertThat(a.path("current").path("met").asBoolean()).isFalse();
        assertThat(a.path("current").path("throttledPeriodsPct").asDouble()).isGreaterThan(5);
        JsonNode bracket = a.path("bracket");
        long below = Long.parseLong(bracket.path("cpuMax").asString().split(" ")[0]);
        assertThat(quota - below).isBetween(1L, 1_000L); // within the resolution
        assertThat(bracket.path("met").asBoolean()).isFalse();
        assertThat(a.path("candidates").size()).isBetween(3, 12);
        assertThat(a.path("steps").asInt()).isLessThanOrEqualTo(9);
        assertThat(a.path("summary").asString()).contains(rec.path("cpuMax").asString());

        HttpResponse<String> html = http.get("/api/v1/advice/" + id + "/report");
        assertThat(html.statusCode()).isEqualTo(200);
        assertThat(html.body()).contains("<svg", "Throttled periods against the limit", "<circle",
                rec.path("cpuMax").asString(), "stroke-dasharray");
        HttpResponse<String> md = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://localhost:" + port + "/api/v1/advice/" + id + "/report"))
                .header("Accept", "text/markdown").GET());
        assertThat(md.body()).contains("## The answer", "| recommended (limits.cpu " + rec.path("limitsCpu").asString())
                .doesNotContain("<svg");

        // Independent runs (same seeds: the advice's repetitions start at the request's seed, 42)
        for (double pct : throttledPct(rec.path("cpuMax").asString(), 2)) {
            assertThat(pct).as("at the recommendation").isLessThanOrEqualTo(5);
        }
        double[] atBracket = throttledPct(bracket.path("cpuMax").asString(), 2);
        assertThat(Math.max(atBracket[0], atBracket[1])).as("at the bracket").isGreaterThan(5);
    }

    /** A pod's container sized: its limits.cpu in millicores, checked by running the pod with that limit. */
    @Test
    void aPodsContainerIsSizedInMillicores() throws Exception {
        ObjectNode sim = (ObjectNode) Http.JSON.readTree(SimulationExamples.KUBERNETES);
        ObjectNode advice = Http.JSON.createObjectNode();
        ObjectNode k = (ObjectNode) sim.path("kubernetes").deepCopy();
        k.put("container", "web");
        advice.set("kubernetes", k);
        advice.put("durationMs", 1000);
        advice.set("objective", Http.JSON.readTree("{\"maxThrottledPeriodsPct\": 10}"));
        advice.set("search", Http.JSON.readTree("{\"quotaUs\": {\"min\": 20000, \"max\": 200000}}"));
        advice.put("repetitions", 2);
        HttpResponse<String> r = http.post("/api/v1/advice", advice.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode a = http.awaitAdvice(Http.json(r).path("id").asString());
        assertThat(a.path("status").asString()).as(a.toString()).isEqualTo("SUCCEEDED");
        String millicores = a.path("recommendation").path("limitsCpu").asString();
        assertThat(millicores).matches("[0-9]+m");
        assertThat(a.path("current").path("met").asBoolean()).isFalse(); // 500m for 0.8 CPU of demand
        assertThat(a.path("request").path("request").path("cgroups").toString()).contains("/kubepods/burstable/pod");

        // the pod with the container's limits.cpu set to the answer: at most 10 % of web's periods throttled
        ObjectNode check = sim.deepCopy();
        ((ObjectNode) check.path("kubernetes").path("pod").path("spec").path("containers").get(0).path("resources")
                .path("limits")).put("cpu", millicores);
        check.put("durationMs", 1000);
        check.put("repetitions", 2);
        HttpResponse<String> s = http.post("/api/v1/simulations", check.toString());
        assertThat(s.statusCode()).as(s.body()).isEqualTo(202);
        JsonNode done = http.awaitFinished(Http.json(s).path("id").asString());
        for (JsonNode run : done.path("result").path("variants").get(0).path("runs")) {
            for (JsonNode c : run.path("cgroups")) {
                if (c.path("path").asString().endsWith("/web")) {
                    JsonNode st = c.path("cpuStat");
                    assertThat(100 * st.path("nrThrottled").asDouble() / st.path("nrPeriods").asDouble())
                            .isLessThanOrEqualTo(10);
                }
            }
        }
        // a pod and a request at once, or no container, are named
        advice.set("request", Http.JSON.readTree(AdviceExamples.ADVICE).path("request"));
        assertThat(http.post("/api/v1/advice", advice.toString()).body()).contains("\"request\"");
        advice.remove("request");
        ((ObjectNode) advice.path("kubernetes")).put("container", "nope");
        HttpResponse<String> bad = http.post("/api/v1/advice", advice.toString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("kubernetes.container", "log-shipper");
    }

    @Test
    void cancelStopsAnAdvice() {
        String body = AdviceExamples.ADVICE.replace("\"durationMs\": 1000", "\"durationMs\": 60000");
        HttpResponse<String> r = http.post("/api/v1/advice", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String id = Http.json(r).path("id").asString();
        HttpResponse<String> c = http.post("/api/v1/advice/" + id + "/cancel", "");
        assertThat(c.statusCode()).as(c.body()).isEqualTo(200);
        assertThat(Http.json(c).path("status").asString()).isEqualTo("CANCELLED");
        assertThat(http.post("/api/v1/advice/" + id + "/cancel", "").statusCode()).isEqualTo(200);
        String sim = Http.json(http.get("/api/v1/advice/" + id)).path("simulation").asString();
        if (!sim.isEmpty()) {
            assertThat(http.awaitFinished(sim).path("status").asString()).isEqualTo("CANCELLED");
        }
        assertThat(http.get("/api/v1/advice/" + id + "/report").statusCode()).isEqualTo(409);
        assertThat(http.post("/api/v1/advice/no-such/cancel", "").statusCode()).isEqualTo(404);
        assertThat(http.get("/api/v1/advice/no-such").statusCode()).isEqualTo(404);
    }

    private void rejected(String body, int status, String field) {
        HttpResponse<String> r = http.post("/api/v1/advice", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(r.body()).as(r.body()).contains("\"" + field);
    }

    @Test
    void badInputIsNamedByField() {
        String ok = AdviceExamples.ADVICE;
        rejected(ok.replace("\"cgroup\": \"/web\",", "\"cgroup\": \"/nope\","), 400, "cgroup");
        rejected(ok.replace("\"workload\": \"web\",", "\"workload\": \"nope\","), 400, "workload");
        rejected(ok.replace("\"objective\": { \"maxThrottledPeriodsPct\": 5 },", "\"objective\": {},"), 400,
                "objective");
        rejected(ok.replace("\"workload\": \"web\",", "").replace("\"maxThrottledPeriodsPct\": 5",
                "\"maxP99WakeupLatencyUs\": 500"), 400, "workload");
        rejected(ok.replace("\"maxThrottledPeriodsPct\": 5", "\"maxP99RequestLatencyUs\": 500"), 400,
                "objective.maxP99RequestLatencyUs");
        rejected(ok.replace("\"min\": 20000", "\"min\": 500"), 400, "search.quotaUs.min");
        rejected(ok.replace("\"periodsUs\": [100000]", "\"periodsUs\": [100000, 50000, 20000], "
                + "\"burstsUs\": [0, 10000, 20000]"), 422, "search");
        rejected(ok.replace("\"durationMs\": 1000", "\"durationMs\": \"1s\""), 400, "request.durationMs");
        rejected(ok.replace("\"durationMs\": 1000", "\"durationMs\": 1000, \"variants\": [{\"label\": \"x\"}]"),
                400, "request.variants");
        rejected(ok.replace("\"durationMs\": 1000", "\"durationMs\": -5"), 400, "request.durationMs");
        // a pod's seed and simulated time beside a request would be silently its own: named instead
        rejected(ok.replace("\"repetitions\": 2", "\"repetitions\": 2, \"seed\": 7"), 400, "seed");
        rejected(ok.replace("\"repetitions\": 2", "\"repetitions\": 2, \"durationMs\": 500"), 400, "durationMs");
        rejected(ok.replace("\"repetitions\": 2", "\"repetitions\": 2, \"warmup\": {\"runs\": 1}"), 400, "warmup");
        // the request's own warm-up, checked as a simulation's
        rejected(ok.replace("\"durationMs\": 1000", "\"durationMs\": 1000, \"warmup\": {\"runs\": 9}"), 400,
                "request.warmup.runs");
    }
}
