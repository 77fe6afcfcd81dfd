package dev.schedsim.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.FakeEngine;
import dev.schedsim.Http;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;

/**
 * The job life cycle through real HTTP, on a stand-in engine: cancel, delete, idempotency, paging, presets,
 * kernel profiles, metrics and the OpenAPI document.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:lifecycle;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms"})
@Import(FakeEngine.class)
class SimulationLifecycleTests {
    @LocalServerPort
    int port;
    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    static String simulation(String name, String workload) {
        return """
                { "name": "%s", "topology": { "preset": "validation-2c" },
                  "cgroups": [ { "path": "/a", "cpuMax": "50000 100000" } ],
                  "workloads": [ { "name": "%s", "cgroup": "/a", "type": "cpu-bound", "threads": 2,
                                   "workUs": 1000 } ],
                  "durationMs": 100 }""".formatted(name, workload);
    }

    private String submit(String body) {
        HttpResponse<String> r = http.post("/api/v1/simulations", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode n = Http.json(r);
        assertThat(r.headers().firstValue("Location")).contains("/api/v1/simulations/" + n.path("id").asString());
        assertThat(n.path("status").asString()).isIn("QUEUED", "RUNNING", "SUCCEEDED");
        return n.path("id").asString();
    }

    @Test
    void aFinishedSimulationCannotBeCancelledButCanBeDeleted() {
        String id = submit(simulation("finish-me", "w"));
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(done.path("progress").asDouble()).isEqualTo(1.0);
        assertThat(done.path("request").path("seed").asLong()).isEqualTo(42);
        assertThat(done.path("request").path("kernel").path("hz").asInt()).isEqualTo(250);
        assertThat(done.path("result").path("variants").get(0).path("label").asString()).isEqualTo("default");

        HttpResponse<String> cancel = http.post("/api/v1/simulations/" + id + "/cancel", "");
        assertThat(cancel.statusCode()).isEqualTo(409);
        assertThat(cancel.headers().firstValue("Content-Type")).hasValueSatisfying(
                c -> assertThat(c).startsWith("application/problem+json"));

        assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(204);
        assertThat(http.get("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
        assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
    }

    @Test
    void aRunningSimulationIsCancelledAndThenDeletable() {
        String id = submit(simulation("blocker", "block"));
        for (int i = 0; i < 2000 && !Http.json(http.get("/api/v1/simulations/" + id)).path("status").asString()
                .equals("RUNNING"); i++) {
            sleep();
        }
        assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(409);
        HttpResponse<String> cancel = http.post("/api/v1/simulations/" + id + "/cancel", "");
        assertThat(cancel.statusCode()).isEqualTo(200);
        assertThat(Http.json(cancel).path("status").asString()).isEqualTo("CANCELLED");
        assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("CANCELLED");
        assertThat(http.post("/api/v1/simulations/" + id + "/cancel", "").statusCode()).isEqualTo(200);
        assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(204);
    }

    @Test
    void unknownSimulationIs404() {
        HttpResponse<String> r = http.get("/api/v1/simulations/does-not-exist");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(Http.json(r).path("type").asString()).isEqualTo("https://schedsim.dev/problems/not-found");
        assertThat(http.post("/api/v1/simulations/does-not-exist/cancel", "").statusCode()).isEqualTo(404);
    }

    @Test
    void idempotencyKeyReplaysTheSameSimulationOrConflicts() {
        HttpRequest.Builder first = HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/api/v1/simulations")).header("Content-Type", "application/json").header("Idempotency-Key", "k-1")
                .POST(HttpRequest.BodyPublishers.ofString(simulation("idem", "w")));
        HttpResponse<String> a = http.send(first);
        assertThat(a.statusCode()).isEqualTo(202);
        HttpResponse<String> b = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/api/v1/simulations")).header("Content-Type", "application/json").header("Idempotency-Key", "k-1")
                .POST(HttpRequest.BodyPublishers.ofString(simulation("idem", "w"))));
        assertThat(b.statusCode()).isEqualTo(200);
        assertThat(Http.json(b).path("id").asString()).isEqualTo(Http.json(a).path("id").asString());
        HttpResponse<String> c = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/api/v1/simulations")).header("Content-Type", "application/json").header("Idempotency-Key", "k-1")
                .POST(HttpRequest.BodyPublishers.ofString(simulation("idem-other", "w"))));
        assertThat(c.statusCode()).isEqualTo(409);
        assertThat(Http.json(c).path("type").asString()).endsWith("/idempotency-conflict");
    }

    @Test
    void listsNewestFirstInPages() {
        String first = submit(simulation("page-1", "w"));
        String second = submit(simulation("page-2", "w"));
        String third = submit(simulation("page-3", "w"));
        JsonNode page = Http.json(http.get("/api/v1/simulations?page=0&size=2"));
        assertThat(page.path("size").asInt()).isEqualTo(2);
        assertThat(page.path("number").asInt()).isEqualTo(0);
        assertThat(page.path("totalElements").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(page.path("totalPages").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(page.path("content").get(0).path("id").asString()).isEqualTo(third);
        assertThat(page.path("content").get(1).path("id").asString()).isEqualTo(second);
        assertThat(page.path("content").get(0).has("result")).isFalse();
        JsonNode byName = Http.json(http.get("/api/v1/simulations?name=page-1"));
        assertThat(byName.path("totalElements").asLong()).isEqualTo(1);
        assertThat(byName.path("content").get(0).path("id").asString()).isEqualTo(first);
        http.awaitFinished(first);
        JsonNode succeeded = Http.json(http.get("/api/v1/simulations?status=SUCCEEDED&name=page-1"));
        assertThat(succeeded.path("totalElements").asLong()).isEqualTo(1);
        HttpResponse<String> bad = http.get("/api/v1/simulations?status=DONE&size=0");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"status\"").contains("\"size\"");
    }

    @Test
    void presetsListMachinesWithDomainLevels() {
        JsonNode presets = Http.json(http.get("/api/v1/topologies/presets"));
        assertThat(presets.size()).isGreaterThanOrEqualTo(9);
        JsonNode p = Http.json(http.get("/api/v1/topologies/presets/power10-8c-smt8"));
        assertThat(p.path("cpuCount").asInt()).isEqualTo(64);
        assertThat(p.path("machine").asString()).isNotEmpty();
        assertThat(p.path("why").asString()).isNotEmpty();
        assertThat(p.path("levels").get(0).path("name").asString()).isEqualTo("SMT");
        assertThat(http.get("/api/v1/topologies/presets/cray-1").statusCode()).isEqualTo(404);
    }

    @Test
    void savedTopologiesWorkLikePresets() {
        HttpResponse<String> saved = http.post("/api/v1/topologies", ApiExamples.TOPOLOGY);
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(201);
        assertThat(Http.json(saved).path("cpuCount").asInt()).isEqualTo(16);
        assertThat(http.post("/api/v1/topologies", ApiExamples.TOPOLOGY).statusCode()).isEqualTo(409);
        assertThat(http.post("/api/v1/topologies", ApiExamples.TOPOLOGY.replace("smt4-box", "validation-2c"))
                .statusCode()).isEqualTo(409);
        assertThat(Http.json(http.get("/api/v1/topologies/smt4-box")).path("kind").asString()).isEqualTo("saved");
        String id = submit(simulation("on-saved", "w").replace("validation-2c", "smt4-box")
                .replace("\"threads\": 2", "\"threads\": 2, \"cpus\": \"8-15\""));
        assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void kernelProfilesMarkTheNewestAsDefault() {
        JsonNode profiles = Http.json(http.get("/api/v1/kernel-profiles"));
        assertThat(profiles.size()).isGreaterThanOrEqualTo(10);
        JsonNode last = profiles.get(profiles.size() - 1);
        assertThat(last.path("defaultProfile").asBoolean()).isTrue();
        assertThat(last.path("pick").asString()).isEqualTo("EEVDF");
        assertThat(profiles.get(0).path("pick").asString()).isEqualTo("CFS");
        assertThat(profiles.get(0).path("defaultProfile").asBoolean()).isFalse();
        assertThat(last.path("features").path("BANDWIDTH_TIMER_INTERLEAVE").asBoolean()).isTrue();
    }

    @Test
    void prometheusShowsServiceMetricsAndResultGauges() {
        String id = submit(simulation("metrics-sim", "w"));
        assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");
        String scrape = http.get("/actuator/prometheus").body();
        assertThat(scrape).contains("schedsim_simulations_submitted_total", "schedsim_simulations_finished_total{",
                "outcome=\"succeeded\"", "schedsim_simulations_queued", "schedsim_simulations_running",
                "schedsim_simulation_duration_seconds_bucket", "schedsim_engine_events_total",
                "schedsim_engine_simulated_seconds_total");
        assertThat(scrape).contains("schedsim_result_cgroup_usage_seconds{", "schedsim_result_cgroup_periods{",
                "schedsim_result_cgroup_throttled_periods{", "schedsim_result_cgroup_throttled_seconds{",
                "schedsim_result_cgroup_throttled_ratio{", "schedsim_result_workload_wakeup_latency_seconds{",
                "schedsim_result_workload_completion_seconds{", "schedsim_result_cpu_idle_ratio{");
        assertThat(scrape).contains("simulation=\"metrics-sim\"", "cgroup=\"/a\"", "quantile=\"0.99\"",
                "variant=\"default\"");
        assertThat(http.get("/actuator/env").statusCode()).isEqualTo(404);
        assertThat(http.get("/actuator/health").statusCode()).isEqualTo(200);
    }

    @Test
    void swaggerUiAndOpenApiWithExamples() {
        assertThat(http.get("/swagger-ui.html").statusCode()).isIn(200, 302);
        assertThat(http.get("/swagger-ui/index.html").statusCode()).isEqualTo(200);
        HttpResponse<String> docs = http.get("/v3/api-docs");
        assertThat(docs.statusCode()).isEqualTo(200);
        JsonNode api = Http.json(docs);
        JsonNode post = api.path("paths").path("/api/v1/simulations").path("post");
        JsonNode examples = post.path("requestBody").path("content").path("application/json").path("examples");
        assertThat(examples.path("two-groups").path("value").toString()).contains("validation-2c");
        assertThat(api.path("paths").has("/api/v1/simulations/{id}")).isTrue();
        assertThat(api.path("paths").has("/api/v1/topologies/presets/{name}")).isTrue();
        assertThat(api.path("paths").has("/api/v1/kernel-profiles")).isTrue();
        assertThat(api.path("paths").path("/api/v1/topologies").path("post").path("requestBody").toString())
                .contains("smt4-box");
    }

    private static void sleep() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
