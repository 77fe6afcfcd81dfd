package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
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

    private static List<String> fields(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        List<String> fields = new ArrayList<>();
        Http.json(r).path("errors").forEach(e -> fields.add(e.path("field").asString()));
        return fields;
    }
}
