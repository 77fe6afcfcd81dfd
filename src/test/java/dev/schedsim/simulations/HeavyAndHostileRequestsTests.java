package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Requests a hostile or careless client sent (issue 36), over real HTTP: each answered with a problem that says
 * what to change, never a 500, and none accepted that would fail in the worker or cost far more than its limits
 * say. Security off: these are about the request, not the client.
 */
class HeavyAndHostileRequestsTests {
    static ConfigurableApplicationContext context;
    static Http http;

    @BeforeAll
    static void start() {
        context = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:hostile-requests;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.warmup=0s",
                "schedsim.poll-interval=20ms"));
        http = EndToEnd.http(context);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /** Issue 36 item 4: a sweep over a request whose cgroup has no path (was a NullPointerException in Variants). */
    @Test
    void aSweepWithACgroupWithoutAPathIs400() {
        HttpResponse<String> r = http.post("/api/v1/simulations", """
                { "topology": { "preset": "validation-2c" }, "cgroups": [ { "cpuMax": "50000" } ],
                  "workloads": [ { "name": "a", "type": "cpu-bound" } ], "durationMs": 100,
                  "sweep": { "cgroup": "/a", "quotaUs": { "from": 10000, "to": 20000, "step": 10000 } } }""");
        assertThat(fields(r, 400)).contains("cgroups[0].path", "sweep.cgroup");
        // and a variant naming a cgroup when one of the request's has none
        HttpResponse<String> v = http.post("/api/v1/simulations", """
                { "topology": { "preset": "validation-2c" }, "cgroups": [ { "cpuMax": "50000" }, { "path": "/a" } ],
                  "workloads": [ { "name": "a", "type": "cpu-bound" } ], "durationMs": 100,
                  "variants": [ { "label": "x", "cgroups": [ { "path": "/a", "cpuMax": "20000" } ] } ] }""");
        assertThat(fields(v, 400)).contains("cgroups[0].path");
    }

    /** Issue 36 item 4: containers' requests.cpu that add up beyond a long (was an overflow in PodCgroups.sum). */
    @Test
    void podRequestsBeyondALongAreAcceptedLikeOneHugeRequest() {
        for (String cpu : List.of("9999999999999999", "2e16")) {
            HttpResponse<String> r = http.post("/api/v1/simulations", """
                    { "kubernetes": { "topology": { "preset": "validation-2c" },
                        "pod": { "metadata": { "name": "p" }, "spec": { "containers": [
                          { "name": "a", "resources": { "requests": { "cpu": "%1$s" } } },
                          { "name": "b", "resources": { "requests": { "cpu": "%1$s" } } } ] } },
                        "workloads": { "a": { "type": "cpu-bound" }, "b": { "type": "cpu-bound" } } },
                      "durationMs": 100 }""".formatted(cpu));
            assertThat(r.statusCode()).as(cpu + ": " + r.body()).isEqualTo(202);
        }
    }

    /**
     * The extended fuzz's finds (RequestFuzzTests, advice endpoint): an advice whose request lists a null workload
     * or cgroup was a NullPointerException while the advisor looked for the sized cgroup and the workload.
     */
    @Test
    void anAdviceWithANullWorkloadOrCgroupIs400() {
        String advice = """
                { "request": { "topology": { "preset": "validation-2c" }, "cgroups": [ %s { "path": "/web" } ],
                    "workloads": [ %s { "name": "web", "cgroup": "/web", "type": "cpu-bound" } ], "durationMs": 100 },
                  "cgroup": "/web", "workload": "web", "objective": { "maxThrottledPeriodsPct": 5 },
                  "search": { "quotaUs": { "min": 20000, "max": 200000 } } }""";
        assertThat(fields(http.post("/api/v1/advice", advice.formatted("", "null,")), 400))
                .contains("request.workloads[0]");
        assertThat(fields(http.post("/api/v1/advice", advice.formatted("null,", "")), 400))
                .contains("request.cgroups[0]");
    }

    /** Issue 36 item 9: the parse limits in the request's words, not Jackson's getter names. */
    @Test
    void deepNestingIsNamedInOurWords() {
        String deep = "{\"a\": ".repeat(600) + "1" + "}".repeat(600);
        HttpResponse<String> r = http.post("/api/v1/simulations", deep);
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode p = Http.json(r);
        assertThat(p.path("detail").asString()).contains("nested 501 levels deep; at most 500")
                .doesNotContain("StreamReadConstraints").doesNotContain("getMax").doesNotContain("`");
        String longNumber = "{\"durationMs\": " + "9".repeat(2000) + "}";
        assertThat(Http.json(http.post("/api/v1/simulations", longNumber)).path("detail").asString())
                .contains("a number of").doesNotContain("StreamReadConstraints");
    }

    /** Issue 36 item 10: a topology named like a route under /api/v1/topologies could be saved, never read. */
    @Test
    void aTopologyNamedPresetsIsRefusedAtSave() {
        for (String name : List.of("presets", "..")) {
            HttpResponse<String> r = http.post("/api/v1/topologies", """
                    { "name": "%s", "topology": { "sockets": 1, "numaNodesPerSocket": 1, "llcsPerNumaNode": 1,
                      "coresPerLlc": 2, "threadsPerCore": 1 } }""".formatted(name));
            assertThat(fields(r, 400)).as(name).containsExactly("name");
            assertThat(Http.json(r).path("errors").get(0).path("message").asString()).contains("reserved");
        }
        assertThat(Http.json(http.get("/api/v1/topologies")).size()).isZero();
        assertThat(Http.json(http.get("/api/v1/topologies/presets")).get(0).path("name").asString())
                .isEqualTo("validation-2c");
    }

    /**
     * Issue 36 item 3: max-cgroups counts the groups a run creates. 300 paths of 4 levels are 1 200 groups (each
     * parent is one); the same 300 paths of one level are within the limit.
     */
    @Test
    void impliedCgroupsCountTowardsMaxCgroups() {
        String deep = IntStream.range(0, 300).mapToObj(i -> "{\"path\": \"/p" + i + "/a/b/c\"}")
                .collect(Collectors.joining(", ", "[", "]"));
        HttpResponse<String> r = http.post("/api/v1/simulations", RequestValidationTests.cg(deep.replace("[",
                "[{\"path\": \"/a\"}, ")));
        JsonNode p = limit(r, "schedsim.limits.max-cgroups");
        assertThat(p.path("requested").asLong()).isEqualTo(1 + 300 * 4);
        String flat = IntStream.range(0, 300).mapToObj(i -> "{\"path\": \"/p" + i + "\"}")
                .collect(Collectors.joining(", ", "[{\"path\": \"/a\"}, ", "]"));
        assertThat(http.post("/api/v1/simulations", RequestValidationTests.cg(flat)).statusCode()).isEqualTo(202);
    }

    /**
     * Issue 36 item 3: 30 paths of 32 levels of 100-character names are 960 groups (within max-cgroups) whose
     * report would not fit its column (the worker ran out of memory on such): refused at admission by their size.
     */
    @Test
    void aResultTooLargeToStoreIsRefusedAtAdmission() {
        String segments = IntStream.range(0, 31).mapToObj(j -> "/" + ("s" + j).repeat(60).substring(0, 100))
                .collect(Collectors.joining());
        String cgroups = IntStream.range(0, 30).mapToObj(i -> "{\"path\": \"/g" + i + segments + "\"}")
                .collect(Collectors.joining(", ", "[{\"path\": \"/a\"}, ", "]"));
        JsonNode p = limit(http.post("/api/v1/simulations", RequestValidationTests.cg(cgroups)),
                "schedsim.limits.max-result-bytes");
        assertThat(p.path("requested").asLong()).isGreaterThan(p.path("value").asLong());
        assertThat(p.path("detail").asString()).contains("estimated").contains("bytes").contains("cgroup paths");
    }

    /**
     * Issue 36 item 8: 16 variants x 20 repetitions of 600 s of threads that run and sleep 1 µs are within every
     * limit of simulated time, yet hours of a worker: refused by their estimated events. The same request for
     * 1 s is accepted, and its runs get an event budget from their estimate, not the global 2 000 000 000.
     */
    @Test
    void aRequestCostingHoursIsRefusedByItsEstimatedEvents() {
        String variants = IntStream.range(0, 16).mapToObj(i -> "{\"label\": \"v" + i + "\", \"kernel\": {\"hz\": "
                + (i % 2 == 0 ? 250 : 1000) + "}}").collect(Collectors.joining(", ", "[", "]"));
        String body = """
                { "topology": { "preset": "desktop-8c-smt2" },
                  "workloads": [ { "name": "w", "type": "periodic", "threads": 8, "runUs": 1, "sleepUs": 1 } ],
                  "durationMs": %d, "repetitions": 20, "variants": %s }""";
        JsonNode p = limit(http.post("/api/v1/simulations", body.formatted(600_000, variants)),
                "schedsim.limits.max-submission-events");
        assertThat(p.path("detail").asString()).contains("an estimated").contains("16 variant(s) x 20 repetition(s)")
                .contains("simulate less time");
        assertThat(p.path("requested").asLong()).isGreaterThan(p.path("value").asLong());

        HttpResponse<String> small = http.post("/api/v1/simulations", """
                { "topology": { "preset": "validation-2c" },
                  "workloads": [ { "name": "w", "type": "periodic", "threads": 1, "runUs": 1, "sleepUs": 1 } ],
                  "durationMs": 1000 }""");
        assertThat(small.statusCode()).as(small.body()).isEqualTo(202);
        JsonNode done = awaitEnd(Http.json(small).path("id").asString());
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
    }

    /**
     * Issue 36 item 8: a run that goes beyond its budget stops there with an error that says so, and the worker
     * goes on with the next. Here the budget is schedsim.limits.max-events (20 000; the estimate's, 20 times it,
     * needs far longer runs than a test's): 4 threads that run and sleep 1 µs for a second process more.
     */
    @Test
    void aRunBeyondItsBudgetStopsWithAnErrorNamingItsBudgetAndEstimate() {
        try (ConfigurableApplicationContext small = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:hostile-budget;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.warmup=0s", "schedsim.poll-interval=20ms",
                "schedsim.workers=1", "schedsim.limits.max-events=20000"))) {
            Http h = EndToEnd.http(small);
            HttpResponse<String> r = h.post("/api/v1/simulations", """
                    { "topology": { "preset": "validation-2c" },
                      "workloads": [ { "name": "w", "type": "periodic", "threads": 4, "runUs": 1, "sleepUs": 1 } ],
                      "durationMs": 1000 }""");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            HttpResponse<String> next = h.post("/api/v1/simulations", """
                    { "topology": { "preset": "validation-2c" },
                      "workloads": [ { "name": "w", "type": "cpu-bound", "threads": 1 } ], "durationMs": 100 }""");
            JsonNode failed = awaitEnd(h, Http.json(r).path("id").asString());
            assertThat(failed.path("status").asString()).as(failed.toString()).isEqualTo("FAILED");
            JsonNode error = failed.path("error");
            assertThat(error.path("type").asString()).isEqualTo("https://schedsim.dev/problems/budget-exceeded");
            assertThat(error.path("limit").asString()).isEqualTo("schedsim.limits.max-events");
            assertThat(error.path("value").asLong()).isEqualTo(20_000);
            assertThat(error.path("estimatedEvents").asLong()).isGreaterThan(20_000);
            assertThat(error.path("detail").asString()).contains("stopped after 20000 engine events")
                    .contains("schedsim.limits.max-events").contains("simulate less time");
            JsonNode done = awaitEnd(h, Http.json(next).path("id").asString());
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        }
    }

    private static JsonNode awaitEnd(String id) {
        return awaitEnd(http, id);
    }

    private static JsonNode awaitEnd(Http http, String id) {
        for (int i = 0; i < 6000; i++) {
            JsonNode n = Http.json(http.get("/api/v1/simulations/" + id));
            if (!n.path("status").asString().equals("QUEUED") && !n.path("status").asString().equals("RUNNING")) {
                return n;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("simulation " + id + " did not end");
    }

    private static JsonNode limit(HttpResponse<String> r, String limit) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        JsonNode p = Http.json(r);
        assertThat(p.path("type").asString()).isEqualTo("https://schedsim.dev/problems/limit-exceeded");
        assertThat(p.path("limit").asString()).as(r.body()).isEqualTo(limit);
        assertThat(p.path("detail").asString()).contains(limit);
        return p;
    }

    private static List<String> fields(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        List<String> fields = new ArrayList<>();
        Http.json(r).path("errors").forEach(e -> fields.add(e.path("field").asString()));
        return fields;
    }
}
