package dev.schedsim.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The trace export end to end: Chrome trace events of the first repetition of each variant, whose run slices add up
 * to the CPU time and whose throttled intervals add up to throttled_usec; 404 without "trace": true.
 */
class TraceTests {
    private static final String REQUEST = """
            { "name": "traced", "topology": { "preset": "validation-2c" },
              "cgroups": [ { "path": "/g", "cpuMax": "50000 100000" } ],
              "workloads": [ { "name": "w", "cgroup": "/g", "type": "cpu-bound", "threads": 2 } ],
              "durationMs": 500, "seed": 3, "trace": %s,
              "variants": [ { "label": "a" }, { "label": "b", "kernel": { "hz": 1000 } } ] }""";

    @Test
    void theTraceHoldsRunSlicesAndThrottledIntervalsPerCpu() {
        try (ConfigurableApplicationContext c = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:trace",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms"))) {
            Http http = EndToEnd.http(c);
            String id = EndToEnd.submit(http, REQUEST.formatted("true"));
            JsonNode done = http.awaitFinished(id);
            assertThat(done.path("status").asString()).isEqualTo("SUCCEEDED");
            HttpResponse<String> t = http.get("/api/v1/simulations/" + id + "/trace");
            assertThat(t.statusCode()).as(t.body()).isEqualTo(200);
            JsonNode trace = Http.json(t);
            for (int v = 0; v < 2; v++) {
                JsonNode variant = done.path("result").path("variants").get(v);
                long run = 0;
                long throttled = 0;
                for (JsonNode e : trace.path("traceEvents")) {
                    if (!e.path("ph").asString().equals("X") || e.path("pid").asInt() != v) {
                        continue;
                    }
                    if (e.path("cat").asString().equals("run")) {
                        run += e.path("dur").asLong();
                        assertThat(e.path("tid").asInt()).isBetween(0, 1);
                    } else {
                        throttled += e.path("dur").asLong();
                    }
                }
                long usage = variant.path("cgroups").get(0).path("cpuStat").path("usageUsec").asLong();
                long thr = 0;
                for (JsonNode cg : variant.path("cgroups")) {
                    if (cg.path("path").asString().equals("/g")) {
                        thr = cg.path("cpuStat").path("throttledUsec").asLong();
                    }
                }
                assertThat(run).as("variant %d run slices vs root usage", v).isCloseTo(usage,
                        org.assertj.core.api.Assertions.within(50L));
                assertThat(throttled).as("variant %d throttled intervals", v).isCloseTo(thr,
                        org.assertj.core.api.Assertions.within(50L));
                assertThat(thr).isPositive();
            }

            String plain = EndToEnd.submit(http, REQUEST.formatted("false"));
            http.awaitFinished(plain);
            assertThat(http.get("/api/v1/simulations/" + plain + "/trace").statusCode()).isEqualTo(404);
            assertThat(http.get("/api/v1/simulations/nope/trace").statusCode()).isEqualTo(404);
        }
    }
}
