package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.kubernetes.StrategicMerge;
import dev.schedsim.simulations.SimulationExamples;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What to apply, through real HTTP on the real engine: a Deployment pasted as kubectl prints it (YAML, in a List
 * beside a Service), advised by a named objective without a search; its patch applied with kubectl's merge gives
 * the container the advised resources, and the pod run again with them meets the objective. Removing the limit is
 * the answer when no searched limit meets the objective but none does, and its patch removes it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:adviceapply;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms",
        "schedsim.progress-interval=50ms", "schedsim.advice.poll-interval=20ms"})
class AdviceApplyTests extends ServiceTest {
    /** SimulationExamples.KUBERNETES's pod as a Deployment's template, in a List as kubectl get -o yaml prints. */
    static final String DEPLOYMENT_LIST_YAML = """
            apiVersion: v1
            kind: List
            items:
            - apiVersion: v1
              kind: Service
              metadata: {name: web, namespace: shop}
              spec: {ports: [{port: 80}]}
            - apiVersion: apps/v1
              kind: Deployment
              metadata: {name: web, namespace: shop}
              spec:
                selector: {matchLabels: {app: web}}
                template:
                  metadata: {labels: {app: web}}
                  spec:
                    containers:
                    - name: web
                      image: nginx:1.27
                      resources:
                        requests: {cpu: 250m, memory: 128Mi}
                        limits: {cpu: 500m, memory: 256Mi}
                    - name: log-shipper
                      image: fluent-bit:3.1
                      resources:
                        requests: {cpu: 50m}
            """;

    private ObjectNode podAdvice(JsonNode pod) {
        ObjectNode k = (ObjectNode) Http.JSON.readTree(SimulationExamples.KUBERNETES).path("kubernetes").deepCopy();
        k.set("pod", pod);
        k.put("container", "web");
        ObjectNode advice = Http.JSON.createObjectNode();
        advice.set("kubernetes", k);
        advice.put("durationMs", 1000);
        advice.put("repetitions", 2);
        return advice;
    }

    private JsonNode run(ObjectNode advice) {
        HttpResponse<String> r = http.post("/api/v1/advice", advice.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode a = http.awaitAdvice(Http.json(r).path("id").asString());
        assertThat(a.path("status").asString()).as(a.toString()).isEqualTo("SUCCEEDED");
        return a;
    }

    /** web's throttled share of periods in each repetition of the simulation request {@code sim}. */
    private double[] webThrottledPct(ObjectNode sim) {
        HttpResponse<String> s = http.post("/api/v1/simulations", sim.toString());
        assertThat(s.statusCode()).as(s.body()).isEqualTo(202);
        JsonNode runs = http.awaitFinished(Http.json(s).path("id").asString()).path("result").path("variants")
                .get(0).path("runs");
        double[] out = new double[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            for (JsonNode c : runs.get(i).path("cgroups")) {
                if (c.path("path").asString().endsWith("/web")) {
                    JsonNode st = c.path("cpuStat");
                    // (no limit, no periods: nothing throttled)
                    out[i] = st.path("nrPeriods").asDouble() == 0 ? 0
                            : 100 * st.path("nrThrottled").asDouble() / st.path("nrPeriods").asDouble();
                }
            }
        }
        return out;
    }

    private String report(String id, String accept) {
        HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:"
                + port + "/api/v1/advice/" + id + "/report")).header("Accept", accept).GET());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private static JsonNode web(JsonNode deployment) {
        for (JsonNode c : deployment.path("spec").path("template").path("spec").path("containers")) {
            if (c.path("name").asString().equals("web")) {
                return c;
            }
        }
        throw new AssertionError("no web in " + deployment);
    }

    @Test
    void aDeploymentInAYamlListIsAdvisedByNameAndItsPatchGivesTheAdvisedResources() throws Exception {
        ObjectNode advice = podAdvice(Http.JSON.getNodeFactory().stringNode(DEPLOYMENT_LIST_YAML));
        advice.set("objective", Http.JSON.readTree("{\"preset\": \"throttled-10pct\"}"));
        JsonNode a = run(advice);
        JsonNode accepted = a.path("request");
        assertThat(accepted.path("objective").path("maxThrottledPeriodsPct").asDouble()).isEqualTo(10);
        // searched from web's 250m request to the node's CPUs, on the kubelet's 100 ms period
        assertThat(accepted.path("search").path("quotaUs").path("min").asLong()).isEqualTo(25_000);
        assertThat(accepted.path("search").path("quotaUs").path("max").asLong())
                .isEqualTo(accepted.path("nodeCpus").asLong() * 100_000).isPositive();
        assertThat(a.path("answer").asString()).isEqualTo("limit");

        JsonNode k = a.path("apply").path("kubernetes");
        assertThat(k.path("kind").asString()).isEqualTo("Deployment");
        assertThat(k.path("kubectl").asString()).startsWith("kubectl -n shop patch deployment web --type strategic");
        JsonNode deployment = dev.schedsim.json.Json.YAML.readTree(DEPLOYMENT_LIST_YAML).path("items").get(1);
        JsonNode patched = StrategicMerge.apply(deployment, k.path("patch"));
        JsonNode resources = web(patched).path("resources");
        assertThat(resources).isEqualTo(k.path("resources"));
        assertThat(resources.path("limits").path("cpu").asString())
                .isEqualTo(a.path("recommendation").path("limitsCpu").asString());
        assertThat(resources.path("requests")).isEqualTo(web(deployment).path("resources").path("requests"));
        assertThat(dev.schedsim.json.Json.YAML.readTree(k.path("helmValues").asString()).path("resources"))
                .isEqualTo(resources);
        assertThat(a.path("apply").path("cpuMax").asString()).isEqualTo(a.path("recommendation").path("cpuMax")
                .asString());
        // the report ends in the same change: the command and the values the answer gives, as they are
        String id = a.path("id").asString();
        assertThat(report(id, "text/markdown")).contains("## What to apply", "```\n" + k.path("kubectl").asString()
                + "\n```", k.path("helmValues").asString(), "cpu.max " + a.path("apply").path("cpuMax").asString());
        assertThat(report(id, "text/html")).contains("<h2>What to apply</h2>", "<pre class=\"apply\">"
                + dev.schedsim.reports.Svg.esc(k.path("kubectl").asString()) + "</pre>");

        // the patched Deployment simulated as it stands: every repetition within the objective
        ObjectNode sim = (ObjectNode) Http.JSON.readTree(SimulationExamples.KUBERNETES);
        ((ObjectNode) sim.path("kubernetes")).set("pod", patched);
        sim.put("durationMs", 1000);
        sim.put("repetitions", 2);
        for (double pct : webThrottledPct(sim)) {
            assertThat(pct).isLessThanOrEqualTo(10);
        }
    }

    @Test
    void removingTheLimitIsTheAnswerWhenNoSearchedLimitMeetsTheObjective() throws Exception {
        JsonNode pod = Http.JSON.readTree(SimulationExamples.KUBERNETES).path("kubernetes").path("pod");
        ObjectNode advice = podAdvice(pod);
        advice.set("objective", Http.JSON.readTree("{\"maxThrottledPeriodsPct\": 5}"));
        // web's four threads want about 0.8 CPU: nothing up to 600m holds them
        advice.set("search", Http.JSON.readTree("{\"quotaUs\": {\"min\": 20000, \"max\": 60000}}"));
        JsonNode a = run(advice);
        assertThat(a.path("answer").asString()).as(a.toString()).isEqualTo("remove-limit");
        assertThat(a.path("recommendation").isMissingNode() || a.path("recommendation").isNull()).isTrue();
        assertThat(a.path("candidates").findValues("met")).allMatch(m -> !m.asBoolean());
        assertThat(a.path("unlimited").path("met").asBoolean()).isTrue();
        assertThat(a.path("unlimited").path("usageCpus").asDouble()).isGreaterThan(0.6);
        assertThat(a.path("removeLimit").path("cost").asString()).contains("cpu.weight");
        assertThat(a.path("apply").path("cpuMax").asString()).isEqualTo("max");
        JsonNode k = a.path("apply").path("kubernetes");
        JsonNode patched = StrategicMerge.apply(pod, k.path("patch"));
        JsonNode resources = patched.path("spec").path("containers").get(0).path("resources");
        assertThat(resources.path("limits").has("cpu")).isFalse();
        assertThat(resources).isEqualTo(k.path("resources"));
        assertThat(report(a.path("id").asString(), "text/markdown")).contains("Remove the limit: "
                + a.path("removeLimit").path("why").asString(), "cpu.max max", k.path("kubectl").asString());

        ObjectNode sim = (ObjectNode) Http.JSON.readTree(SimulationExamples.KUBERNETES);
        ((ObjectNode) sim.path("kubernetes")).set("pod", patched);
        sim.put("durationMs", 1000);
        sim.put("repetitions", 2);
        for (double pct : webThrottledPct(sim)) {
            assertThat(pct).isLessThanOrEqualTo(5);
        }
    }

    @Test
    void presetsAreNamedAndBadOnesAnsweredWithTheNames() {
        ObjectNode advice = podAdvice(Http.JSON.readTree(SimulationExamples.KUBERNETES).path("kubernetes")
                .path("pod"));
        advice.set("objective", Http.JSON.readTree("{\"preset\": \"CPUThrottling\"}"));
        HttpResponse<String> r = http.post("/api/v1/advice", advice.toString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("objective.preset", "did you mean 'CPUThrottlingHigh'", "throttled-1pct");
        advice.set("objective", Http.JSON.readTree("{\"preset\": \"CPUThrottlingHigh\", \"maxThrottledPeriodsPct\": 3}"));
        r = http.post("/api/v1/advice", advice.toString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("objective.maxThrottledPeriodsPct", "25 %");
        advice.set("objective", Http.JSON.readTree("{\"maxThrotledPeriodsPct\": 3}"));
        r = http.post("/api/v1/advice", advice.toString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("did you mean 'maxThrottledPeriodsPct'");
    }

    @Test
    void everyContainerOfAPodIsAdvisedAtOnceAndOnePatchSetsThemAll() throws Exception {
        JsonNode pod = Http.JSON.readTree(SimulationExamples.KUBERNETES).path("kubernetes").path("pod");
        ObjectNode advice = podAdvice(pod);
        ((ObjectNode) advice.path("kubernetes")).remove("container");
        advice.set("objective", Http.JSON.readTree("{\"preset\": \"CPUThrottlingHigh\"}"));
        HttpResponse<String> r = http.post("/api/v1/advice", advice.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String id = Http.json(r).path("id").asString();
        assertThat(Http.json(r).path("pod").path("containers").findValuesAsString("container"))
                .containsExactly("web", "log-shipper");
        JsonNode view = null;
        for (int i = 0; i < 6000; i++) { // (bounded by a count, not a time)
            view = Http.json(http.get("/api/v1/advice/" + id));
            if (!view.path("pod").path("status").asString().equals("RUNNING")) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(view.path("pod").path("status").asString()).as(view.toString()).isEqualTo("SUCCEEDED");
        JsonNode patched = StrategicMerge.apply(pod, view.path("pod").path("patch"));
        assertThat(view.path("pod").path("kubectl").asString()).startsWith("kubectl -n shop patch pod web");
        for (JsonNode m : view.path("pod").path("containers")) {
            JsonNode own = Http.json(http.get("/api/v1/advice/" + m.path("id").asString()));
            assertThat(own.path("status").asString()).isEqualTo("SUCCEEDED");
            assertThat(own.path("request").path("container").asString()).isEqualTo(m.path("container").asString());
            JsonNode c = null;
            for (JsonNode x : patched.path("spec").path("containers")) {
                c = x.path("name").equals(m.path("container")) ? x : c;
            }
            assertThat(c.path("resources")).isEqualTo(own.path("apply").path("kubernetes").path("resources"));
        }
        ObjectNode sim = (ObjectNode) Http.JSON.readTree(SimulationExamples.KUBERNETES);
        ((ObjectNode) sim.path("kubernetes")).set("pod", patched);
        sim.put("durationMs", 1000);
        sim.put("repetitions", 2);
        for (double pct : webThrottledPct(sim)) {
            assertThat(pct).isLessThanOrEqualTo(25);
        }
    }
}
