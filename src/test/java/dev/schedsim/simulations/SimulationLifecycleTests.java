package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.topologies.TopologyExamples;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/**
 * The job life cycle through real HTTP on the real engine: cancel, delete, idempotency, paging, presets,
 * kernel profiles, metrics and the OpenAPI document. The H2 datasource is pinned here so that an exported
 * {@code SPRING_DATASOURCE_URL} (CI: PostgreSQL) does not leak in.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:lifecycle;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms",
        "schedsim.progress-interval=50ms"})
class SimulationLifecycleTests extends ServiceTest {
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
        JsonNode variant = done.path("result").path("variants").get(0);
        assertThat(variant.path("label").asString()).isEqualTo("default");
        // The real engine ran it: 2 threads × 1000 µs of work in /a, plus a few µs of modelled kernel time.
        assertThat(done.path("events").asLong()).isPositive();
        assertThat(variant.path("events").asLong()).isEqualTo(done.path("events").asLong());
        assertThat(variant.path("workloads").get(0).path("cpuUsec").asLong()).isBetween(2000L, 2100L);

        HttpResponse<String> cancel = http.post("/api/v1/simulations/" + id + "/cancel", "");
        assertThat(cancel.statusCode()).isEqualTo(409);
        assertThat(cancel.headers().firstValue("Content-Type")).hasValueSatisfying(
                c -> assertThat(c).startsWith("application/problem+json"));

        assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(204);
        assertThat(http.get("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
        assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
    }

    /** Three repetitions of a periodic thread next to two busy ones; {@code noise} null keeps the preset's. */
    static String repeated(String name, Boolean noise) {
        return """
                { "name": "%s", "topology": { "preset": "validation-2c"%s },
                  "workloads": [ { "name": "p", "type": "periodic", "threads": 1, "runUs": 100, "sleepUs": 900 },
                                 { "name": "b", "type": "cpu-bound", "threads": 2 } ],
                  "durationMs": 300, "repetitions": 3 }""".formatted(name,
                noise == null ? "" : ", \"machineNoise\": " + noise);
    }

    @Test
    void repetitionsDifferByTheMachinesNoiseUnlessItIsOff() {
        JsonNode noisy = http.awaitFinished(submit(repeated("noisy", null)));
        JsonNode quiet = http.awaitFinished(submit(repeated("quiet", false)));
        assertThat(noisy.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(quiet.path("status").asString()).isEqualTo("SUCCEEDED");
        java.util.Set<String> noisyRuns = new java.util.HashSet<>();
        java.util.Set<String> quietRuns = new java.util.HashSet<>();
        for (JsonNode run : noisy.path("result").path("variants").get(0).path("runs")) {
            noisyRuns.add(run.path("workloads").get(0).toString());
        }
        for (JsonNode run : quiet.path("result").path("variants").get(0).path("runs")) {
            quietRuns.add(run.path("workloads").get(0).toString());
        }
        // Each seed's run differs on the noisy machine; without noise nothing in this spec draws from the seed.
        assertThat(noisyRuns).hasSize(3);
        assertThat(quietRuns).hasSize(1);
    }

    @Test
    void aRunningSimulationShowsProgressIsCancelledAndThenDeletable() {
        String id = submit(EndToEnd.longRun("long-run"));
        try {
            JsonNode running = http.awaitRunningWithProgress(id);
            assertThat(running.path("progress").asDouble()).isStrictlyBetween(0.0, 1.0);
            assertThat(running.path("events").asLong()).isPositive();
            assertThat(running.path("startedAt").isNull()).isFalse();
            assertThat(running.path("finishedAt").isNull()).isTrue();
            assertThat(running.has("result")).isFalse();

            HttpResponse<String> delete = http.delete("/api/v1/simulations/" + id);
            assertThat(delete.statusCode()).isEqualTo(409);
            assertThat(Http.json(delete).path("detail").asString()).contains("RUNNING");

            HttpResponse<String> cancel = http.post("/api/v1/simulations/" + id + "/cancel", "");
            assertThat(cancel.statusCode()).isEqualTo(200);
            assertThat(Http.json(cancel).path("status").asString()).isEqualTo("CANCELLED");
            JsonNode cancelled = http.awaitFinished(id);
            assertThat(cancelled.path("status").asString()).isEqualTo("CANCELLED");
            assertThat(cancelled.has("result")).isFalse();
            assertThat(http.post("/api/v1/simulations/" + id + "/cancel", "").statusCode()).isEqualTo(200);
            assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(204);
            assertThat(http.get("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
        } finally {
            // Never leave the engine busy for the rest of the suite (a no-op when already cancelled or deleted).
            http.post("/api/v1/simulations/" + id + "/cancel", "");
        }
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
        HttpResponse<String> saved = http.post("/api/v1/topologies", TopologyExamples.TOPOLOGY);
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(201);
        assertThat(Http.json(saved).path("cpuCount").asInt()).isEqualTo(16);
        // The same topology again (the Swagger example run twice): 200 with it; another under its name: 409.
        HttpResponse<String> again = http.post("/api/v1/topologies", TopologyExamples.TOPOLOGY);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(Http.json(again).path("cpuCount").asInt()).isEqualTo(16);
        assertThat(http.post("/api/v1/topologies", TopologyExamples.TOPOLOGY.replace("\"coresPerLlc\": 4",
                "\"coresPerLlc\": 2")).statusCode()).isEqualTo(409);
        assertThat(http.post("/api/v1/topologies", TopologyExamples.TOPOLOGY.replace("smt4-box", "validation-2c"))
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

    /** Throttled hogs in /a, a periodic task and a finite job in /b. */
    static final String METRICS_SIMULATION = """
            { "name": "metrics-sim", "topology": { "preset": "validation-2c" },
              "cgroups": [ { "path": "/a", "cpuMax": "50000 100000" }, { "path": "/b" } ],
              "workloads": [
                { "name": "hog", "cgroup": "/a", "type": "cpu-bound", "threads": 2 },
                { "name": "tick", "cgroup": "/b", "type": "periodic", "threads": 1, "runUs": 1000, "sleepUs": 4000 },
                { "name": "job", "cgroup": "/b", "type": "cpu-bound", "threads": 1, "workUs": 20000 } ],
              "durationMs": 500 }""";

    @Test
    void prometheusShowsServiceMetricsAndResultGauges() {
        String id = submit(METRICS_SIMULATION);
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        String scrape = http.get("/actuator/prometheus").body();
        assertThat(scrape).contains("schedsim_simulations_submitted_total", "schedsim_simulations_finished_total{",
                "outcome=\"succeeded\"", "schedsim_simulations_queued", "schedsim_simulations_running",
                "schedsim_simulation_duration_seconds_bucket", "schedsim_engine_events_total",
                "schedsim_engine_simulated_seconds_total");
        assertThat(value(scrape, "schedsim_engine_events_total", Map.of()))
                .isGreaterThanOrEqualTo(done.path("events").asDouble());

        // The result gauges carry the values of the real result, cgroup by cgroup and workload by workload.
        JsonNode variant = done.path("result").path("variants").get(0);
        Map<String, String> base = Map.of("id", id, "simulation", "metrics-sim", "variant", "default");
        JsonNode a = null;
        for (JsonNode c : variant.path("cgroups")) {
            Map<String, String> t = with(base, "cgroup", c.path("path").asString());
            JsonNode st = c.path("cpuStat");
            double periods = st.path("nrPeriods").asDouble();
            double throttled = st.path("nrThrottled").asDouble();
            assertThat(value(scrape, "schedsim_result_cgroup_usage_seconds", t))
                    .isEqualTo(st.path("usageUsec").asDouble() / 1e6);
            assertThat(value(scrape, "schedsim_result_cgroup_periods", t)).isEqualTo(periods);
            assertThat(value(scrape, "schedsim_result_cgroup_throttled_periods", t)).isEqualTo(throttled);
            assertThat(value(scrape, "schedsim_result_cgroup_throttled_seconds", t))
                    .isEqualTo(st.path("throttledUsec").asDouble() / 1e6);
            assertThat(value(scrape, "schedsim_result_cgroup_throttled_ratio", t))
                    .isEqualTo(periods > 0 ? throttled / periods : 0);
            if (c.path("path").asString().equals("/a")) {
                a = st;
            }
        }
        // Two CPU hogs under a half-CPU quota: used CPU time, and throttled in periods.
        assertThat(a).isNotNull();
        assertThat(a.path("usageUsec").asLong()).isPositive();
        assertThat(a.path("nrPeriods").asLong()).isPositive();
        assertThat(a.path("nrThrottled").asLong()).isPositive();
        int completions = 0;
        for (JsonNode w : variant.path("workloads")) {
            Map<String, String> t = with(base, "workload", w.path("name").asString());
            JsonNode lat = w.path("wakeupLatencyUs");
            assertThat(value(scrape, "schedsim_result_workload_wakeup_latency_seconds", with(t, "quantile", "0.99")))
                    .isEqualTo(lat.path("p99").asDouble() / 1e6);
            assertThat(value(scrape, "schedsim_result_workload_wakeup_latency_seconds", with(t, "quantile", "1")))
                    .isEqualTo(lat.path("max").asDouble() / 1e6);
            if (w.path("completionUs").isNumber()) {
                completions++;
                assertThat(value(scrape, "schedsim_result_workload_completion_seconds", t))
                        .isEqualTo(w.path("completionUs").asDouble() / 1e6);
            }
        }
        assertThat(completions).as("the finite job completes: " + variant.path("workloads")).isPositive();
        assertThat(value(scrape, "schedsim_result_cpu_idle_ratio", base))
                .isEqualTo(variant.path("cpus").path("idlePct").asDouble() / 100);

        // A second simulation of the same name is a series of its own (the gauges are keyed by id): the first's
        // values stay (they were overwritten when the name was the key).
        String twin = submit(METRICS_SIMULATION.replace("\"durationMs\": 500", "\"durationMs\": 200"));
        JsonNode twinDone = http.awaitFinished(twin);
        String both = http.get("/actuator/prometheus").body();
        Map<String, String> twinBase = Map.of("id", twin, "simulation", "metrics-sim", "variant", "default");
        assertThat(value(both, "schedsim_result_cgroup_usage_seconds", with(base, "cgroup", "/a")))
                .isEqualTo(a.path("usageUsec").asDouble() / 1e6);
        assertThat(value(both, "schedsim_result_cgroup_usage_seconds", with(twinBase, "cgroup", "/a")))
                .isLessThan(a.path("usageUsec").asDouble() / 1e6);
        assertThat(twinDone.path("status").asString()).isEqualTo("SUCCEEDED");
        // Every SchedSim metric says what it is.
        for (String line : both.split("\n")) {
            if (line.startsWith("# HELP schedsim_")) {
                assertThat(line.split(" ", 4)).as(line).hasSize(4);
                assertThat(line.split(" ", 4)[3].trim()).as(line).isNotEmpty();
            }
        }

        assertThat(http.get("/actuator/env").statusCode()).isEqualTo(404);
        assertThat(http.get("/actuator/health").statusCode()).isEqualTo(200);
    }

    private static Map<String, String> with(Map<String, String> labels, String key, String value) {
        Map<String, String> m = new HashMap<>(labels);
        m.put(key, value);
        return m;
    }

    /** The value of the one sample of {@code metric} in a Prometheus text scrape whose labels include {@code labels}. */
    static double value(String scrape, String metric, Map<String, String> labels) {
        Double found = null;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(metric + "{") || line.startsWith(metric + " "))) {
                continue;
            }
            Map<String, String> have = new HashMap<>();
            String rest = line.substring(metric.length());
            if (rest.startsWith("{")) {
                int end = rest.indexOf("} ");
                for (String pair : rest.substring(1, end).split(",(?=[a-zA-Z_]+=\")")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        have.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
                    }
                }
                rest = rest.substring(end + 1);
            }
            if (have.entrySet().containsAll(labels.entrySet())) {
                assertThat(found).as("more than one sample of " + metric + " with " + labels).isNull();
                found = Double.parseDouble(rest.trim().split(" ")[0]);
            }
        }
        assertThat(found).as("no sample of " + metric + " with " + labels + " in\n" + scrape).isNotNull();
        return found;
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
        // The workload fields are documented in the schema.
        assertThat(api.path("components").path("schemas").path("WorkloadRequest").path("properties").path("rps")
                .path("description").asString()).contains("-R");
    }

    /**
     * Deep links and generated clients need operation ids named for what they do (springdoc's defaults were
     * get_1, list_1 …); the documented statuses are the ones answered; Swagger UI prefills no Idempotency-Key
     * (the shipped one made the second "Try it out" of an example a 409).
     */
    @Test
    void operationsAreNamedAndDocumentTheirStatuses() {
        JsonNode api = Http.json(http.get("/v3/api-docs"));
        java.util.Set<String> ids = new java.util.HashSet<>();
        api.path("paths").forEach(path -> path.forEach(op -> {
            String id = op.path("operationId").asString();
            assertThat(id).as(op.path("summary").asString()).matches("[a-z][A-Za-z]+");
            assertThat(ids.add(id)).as("unique operationId " + id).isTrue();
        }));
        assertThat(ids).contains("submitSimulation", "getSimulation", "cancelSimulation", "saveTopology");
        JsonNode paths = api.path("paths");
        assertThat(paths.path("/api/v1/topologies").path("post").path("responses").has("201")).isTrue();
        assertThat(paths.path("/api/v1/topologies").path("post").path("responses").path("200").path("description")
                .asString()).contains("saved already");
        assertThat(paths.path("/api/v1/simulations/{id}/cancel").path("post").path("responses").has("409")).isTrue();
        // The fixed value sets and what a request cannot do without, from the code that defines them.
        JsonNode schemas = api.path("components").path("schemas");
        assertThat(schemas.path("WorkloadRequest").path("properties").path("type").path("$ref").asString())
                .isEqualTo("#/components/schemas/WorkloadType");
        assertThat(schemas.path("WorkloadType").path("enum").toString())
                .contains("cpu-bound", "request-response", "schbench", "trace", "rt-app", "ftrace");
        assertThat(schemas.path("KernelRequest").path("properties").path("profile").path("$ref").asString())
                .isEqualTo("#/components/schemas/KernelProfileName");
        assertThat(schemas.path("KernelProfileName").path("enum").toString()).contains("6.1", "6.18");
        // topology and workloads: required unless kubernetes gives them (issue 22), durationMs unless rt-app's
        // global.duration does, which their texts say.
        assertThat(schemas.path("SimulationRequest").has("required")).isFalse();
        assertThat(schemas.path("SimulationRequest").path("properties").path("durationMs").path("description")
                .asString()).contains("unless an rt-app");
        assertThat(schemas.path("SimulationRequest").path("properties").path("topology").path("description")
                .asString()).contains("unless kubernetes");
        assertThat(schemas.path("SimulationRequest").path("properties").path("workloads").path("description")
                .asString()).contains("unless kubernetes");
        assertThat(schemas.path("CgroupRequest").path("properties").path("cpuMax").path("description").asString())
                .contains("QUOTA PERIOD", "µs");
        assertThat(schemas.path("SimulationRequest").path("properties").path("durationMs").path("description")
                .asString()).contains("milliseconds");
        for (JsonNode p : paths.path("/api/v1/simulations").path("post").path("parameters")) {
            if (p.path("name").asString().equals("Idempotency-Key")) {
                assertThat(p.has("example")).as(p.toString()).isFalse();
                assertThat(p.path("schema").has("example")).as(p.toString()).isFalse();
            }
        }
    }

    /** The rows of the Markdown table in {@code text} whose header row starts with {@code header}, cells trimmed. */
    static List<List<String>> markdownTable(String text, String header) {
        List<List<String>> rows = new ArrayList<>();
        boolean in = false;
        for (String line : text.split("\n")) {
            if (!in) {
                in = line.startsWith(header);
                continue;
            }
            if (!line.startsWith("|")) {
                break;
            }
            if (line.startsWith("|---")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String c : line.substring(1, line.length() - 1).split("\\|")) {
                cells.add(c.trim());
            }
            rows.add(cells);
        }
        assertThat(rows).as("a table headed " + header).isNotEmpty();
        return rows;
    }

    /**
     * docs/api.md is the contract in words: its endpoint table (method, path, operation id, documented statuses) and
     * its field tables (the request, cgroups, workloads) list exactly what /v3/api-docs has, so neither can drift.
     */
    @Test
    void docsApiMdMatchesTheOpenApiDocument() throws java.io.IOException {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("docs/api.md"));
        JsonNode api = Http.json(http.get("/v3/api-docs"));
        java.util.Set<String> served = new java.util.TreeSet<>();
        api.path("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            java.util.Set<String> statuses = new java.util.TreeSet<>();
            op.getValue().path("responses").properties().forEach(r -> statuses.add(r.getKey()));
            served.add(op.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey() + " "
                    + op.getValue().path("operationId").asString() + " " + statuses);
        }));
        java.util.Set<String> documented = new java.util.TreeSet<>();
        for (List<String> row : markdownTable(doc, "| method | path |")) {
            documented.add(row.get(0) + " " + row.get(1) + " " + row.get(2) + " "
                    + new java.util.TreeSet<>(List.of(row.get(3).split(",\\s*"))));
        }
        assertThat(documented).as("docs/api.md's endpoints against /v3/api-docs").isEqualTo(served);

        JsonNode schemas = api.path("components").path("schemas");
        java.util.Map<String, String> required = new java.util.TreeMap<>();
        for (List<String> row : markdownTable(doc, "| field | type | required |")) {
            required.put(row.get(0), row.get(2));
        }
        java.util.Map<String, String> requestFields = new java.util.TreeMap<>();
        JsonNode request = schemas.path("SimulationRequest");
        request.path("properties").properties().forEach(f -> requestFields.put(f.getKey(),
                request.path("required").toString().contains("\"" + f.getKey() + "\"") ? "yes" : "no"));
        assertThat(required).as("docs/api.md's request fields and their required markers").isEqualTo(requestFields);
        assertThat(fields(markdownTable(doc, "| field | meaning |"))).as("docs/api.md's cgroup fields")
                .isEqualTo(names(schemas.path("CgroupRequest")));
        assertThat(fields(markdownTable(doc, "| field | type it belongs to |"))).as("docs/api.md's workload fields")
                .isEqualTo(names(schemas.path("WorkloadRequest")));
    }

    private static java.util.Set<String> fields(List<List<String>> rows) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        rows.forEach(r -> out.add(r.get(0)));
        return out;
    }

    private static java.util.Set<String> names(JsonNode schema) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        schema.path("properties").properties().forEach(f -> out.add(f.getKey()));
        return out;
    }

    /**
     * Variants over cgroups and workloads (issue "Limits advisor", item 1): one request compares quotas and thread
     * counts; each variant runs the request's cgroups and workloads with its overrides, checked by the same rules.
     */
    @Test
    void variantsOverrideCgroupsByPathAndWorkloadsByName() {
        String base = """
                { "name": "quota-compare", "topology": { "preset": "validation-2c" },
                  "cgroups": [ { "path": "/a", "cpuMax": "50000 100000" } ],
                  "workloads": [ { "name": "w", "cgroup": "/a", "type": "cpu-bound", "threads": 2 } ],
                  "durationMs": 1000, "variants": %s }""";
        String id = submit(base.formatted("""
                [ { "label": "half" },
                  { "label": "quota-80", "cgroups": [ { "path": "/a", "cpuMax": "80000 100000" } ] },
                  { "label": "one-thread", "workloads": [ { "name": "w", "threads": 1 } ] } ]"""));
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        Map<String, Double> usage = usageByVariant(done, "/a");
        // The quota bounds the usage (0.5 CPU, then 0.8 CPU: the ratio near 1.6, less the first period's and the
        // tick overrun's share); one thread under the 0.5 CPU quota still uses what two did.
        assertThat(usage.get("quota-80") / usage.get("half")).isBetween(1.3, 1.7);
        assertThat(usage.get("one-thread") / usage.get("half")).isBetween(0.9, 1.1);
        assertThat(done.path("request").path("variants").get(1).path("cgroups").get(0).path("cpuMax").asString())
                .isEqualTo("80000 100000");
        assertThat(http.get("/api/v1/simulations/" + id + "/report").body()).contains("80000 100000");

        HttpResponse<String> badPath = http.post("/api/v1/simulations", base.formatted(
                "[ { \"label\": \"x\", \"cgroups\": [ { \"path\": \"/nope\", \"cpuMax\": \"max\" } ] } ]"));
        assertThat(badPath.statusCode()).isEqualTo(400);
        assertThat(badPath.body()).contains("variants[0].cgroups[0].path");
        HttpResponse<String> badQuota = http.post("/api/v1/simulations", base.formatted(
                "[ { \"label\": \"x\", \"cgroups\": [ { \"path\": \"/a\", \"cpuMax\": \"10 100000\" } ] } ]"));
        assertThat(badQuota.statusCode()).isEqualTo(400);
        assertThat(badQuota.body()).contains("variants[0].cgroups[0].cpuMax");
        HttpResponse<String> badWorkload = http.post("/api/v1/simulations", base.formatted(
                "[ { \"label\": \"x\", \"workloads\": [ { \"name\": \"v\", \"threads\": 3 } ] } ]"));
        assertThat(badWorkload.statusCode()).isEqualTo(400);
        assertThat(badWorkload.body()).contains("variants[0].workloads[0].name");
    }

    /**
     * A sweep (issue "Limits advisor", item 1): a grid of one cgroup's quota × period generates labelled variants
     * that run and compare like listed ones; a grid beyond schedsim.limits.max-variants is a 422.
     */
    @Test
    void aSweepGeneratesVariantsFromAGrid() {
        String base = """
                { "name": "quota-sweep", "topology": { "preset": "validation-2c" },
                  "cgroups": [ { "path": "/a", "cpuMax": "50000 100000" } ],
                  "workloads": [ { "name": "w", "cgroup": "/a", "type": "cpu-bound", "threads": 2 } ],
                  "durationMs": 500, "sweep": %s }""";
        String id = submit(base.formatted(
                "{ \"cgroup\": \"/a\", \"quotaUs\": { \"from\": 20000, \"to\": 60000, \"step\": 20000 },"
                        + " \"periodsUs\": [ 50000, 100000 ] }"));
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        Map<String, Double> usage = usageByVariant(done, "/a");
        List<String> labels = new ArrayList<>(usage.keySet());
        assertThat(labels).containsExactly("q20000-p50000-b0", "q20000-p100000-b0", "q40000-p50000-b0",
                "q40000-p100000-b0", "q60000-p50000-b0", "q60000-p100000-b0");
        // 0.4 CPU (20 ms per 50 ms) uses more than 0.2 CPU (20 ms per 100 ms); 60 ms per 100 ms more than 40.
        assertThat(usage.get("q20000-p50000-b0")).isGreaterThan(usage.get("q20000-p100000-b0") * 1.5);
        assertThat(usage.get("q60000-p100000-b0")).isGreaterThan(usage.get("q40000-p100000-b0") * 1.2);
        assertThat(done.path("request").has("sweep")).isTrue();

        HttpResponse<String> tooBig = http.post("/api/v1/simulations", base.formatted(
                "{ \"cgroup\": \"/a\", \"quotaUs\": { \"from\": 1000, \"to\": 100000, \"step\": 1000 } }"));
        assertThat(tooBig.statusCode()).as(tooBig.body()).isEqualTo(422);
        assertThat(tooBig.body()).contains("schedsim.limits.max-variants");
        HttpResponse<String> noCgroup = http.post("/api/v1/simulations", base.formatted(
                "{ \"cgroup\": \"/b\", \"quotaUs\": { \"from\": 1000, \"to\": 2000, \"step\": 1000 } }"));
        assertThat(noCgroup.statusCode()).isEqualTo(400);
        assertThat(noCgroup.body()).contains("sweep.cgroup");
    }

    /** The cgroup's usage_usec in each variant of a finished simulation, by label, in the result's order. */
    private static Map<String, Double> usageByVariant(JsonNode done, String path) {
        Map<String, Double> usage = new java.util.LinkedHashMap<>();
        for (JsonNode v : done.path("result").path("variants")) {
            for (JsonNode c : v.path("cgroups")) {
                if (c.path("path").asString().equals(path)) {
                    usage.put(v.path("label").asString(), c.path("cpuStat").path("usageUsec").asDouble());
                }
            }
        }
        return usage;
    }
}
