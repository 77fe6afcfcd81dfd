package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.json.Json;
import dev.schedsim.simulations.SimulationExamples;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The forms users have, at POST /api/v1/advice: an advice as YAML with a StatefulSet, a DaemonSet in a List, a
 * manifest posted bare (answered with the request that wraps it), and error titles that name the kind of problem.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:adviceforms;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=1", "schedsim.poll-interval=20ms",
        "schedsim.advice.poll-interval=20ms"})
class AdviceFormsTests extends ServiceTest {
    private static ObjectNode workload(String kind) {
        JsonNode pod = Http.JSON.readTree(SimulationExamples.KUBERNETES).path("kubernetes").path("pod");
        ObjectNode w = Http.JSON.createObjectNode().put("apiVersion", "apps/v1").put("kind", kind);
        w.set("metadata", pod.path("metadata"));
        ObjectNode t = w.putObject("spec").putObject("template");
        t.putObject("metadata").putObject("labels").put("app", "web");
        t.set("spec", pod.path("spec"));
        return w;
    }

    private ObjectNode advice(JsonNode pod) {
        ObjectNode a = Http.JSON.createObjectNode();
        ObjectNode k = (ObjectNode) Http.JSON.readTree(SimulationExamples.KUBERNETES).path("kubernetes").deepCopy();
        k.set("pod", pod);
        k.put("container", "web");
        a.set("kubernetes", k);
        a.put("durationMs", 200);
        a.put("repetitions", 1);
        a.set("objective", Http.JSON.readTree("{\"preset\": \"CPUThrottlingHigh\"}"));
        return a;
    }

    /** Accepted, its pod's web container sized (then cancelled: what it answers is AdviceApplyTests'). */
    private void accepted(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode a = Http.json(r);
        assertThat(a.path("request").path("container").asString()).isEqualTo("web");
        assertThat(a.path("request").path("cgroup").asString()).startsWith("/kubepods/burstable/pod").endsWith("/web");
        http.post("/api/v1/advice/" + a.path("id").asString() + "/cancel", "");
    }

    @Test
    void aStatefulSetAsYamlAndADaemonSetInAListAreAccepted() {
        String yaml = Json.YAML.writeValueAsString(advice(workload("StatefulSet")));
        accepted(http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/advice"))
                .header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(yaml))));
        ObjectNode list = Http.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "List");
        list.putArray("items").add(Http.JSON.readTree("{\"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"c\"}}"))
                .add(workload("DaemonSet"));
        accepted(http.post("/api/v1/advice", advice(list).toString()));
        accepted(http.post("/api/v1/advice", advice(Http.JSON.readTree(SimulationExamples.KUBERNETES)
                .path("kubernetes").path("pod")).toString()));
    }

    @Test
    void aManifestPostedAsItIsIsAnsweredWithTheRequestThatWrapsIt() {
        HttpResponse<String> r = http.post("/api/v1/advice", workload("Deployment").toString());
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode p = Http.json(r);
        assertThat(p.path("title").asString()).isEqualTo("Not a request of this endpoint");
        assertThat(p.path("detail").asString()).contains("Kubernetes Deployment", "{\"kubernetes\": {\"pod\": ",
                "\"web\": {", "\"log-shipper\": {", "\"objective\"");
    }

    @Test
    void errorTitlesNameTheKindOfProblem() {
        ObjectNode a = advice(workload("Deployment"));
        a.put("durationMs", "10s");
        JsonNode p = Http.json(http.post("/api/v1/advice", a.toString()));
        assertThat(p.path("title").asString()).isEqualTo("Wrong type");
        assertThat(p.path("detail").asString()).contains("durationMs", "expected an integer, got \"10s\"");
        a.put("durationMs", 200);
        a.set("objective", Http.JSON.readTree("{\"maxThrottledPeriodPct\": 5}"));
        p = Http.json(http.post("/api/v1/advice", a.toString()));
        assertThat(p.path("title").asString()).isEqualTo("Unknown field");
        assertThat(p.path("detail").asString()).contains("objective.maxThrottledPeriodPct",
                "did you mean 'maxThrottledPeriodsPct'");
        p = Http.json(http.post("/api/v1/advice", "{\"objective\": "));
        assertThat(p.path("title").asString()).isEqualTo("Malformed JSON");
        // inside the pod: a misspelt resources field, named with the one meant
        ObjectNode w = workload("Deployment");
        ObjectNode res = (ObjectNode) w.path("spec").path("template").path("spec").path("containers").get(0)
                .path("resources");
        res.set("limit", res.remove("limits"));
        HttpResponse<String> r = http.post("/api/v1/advice", advice(w).put("durationMs", 200).toString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("resources.limit", "did you mean 'limits'");
    }
}
