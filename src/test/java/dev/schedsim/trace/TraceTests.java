package dev.schedsim.trace;

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
 * to the CPU time and whose throttled intervals add up to throttled_usec; the same runs as ftrace text, one variant
 * at a time, whose sched_switch lines give each workload's context switches; 404 without "trace": true, 400 for an
 * unknown format or variant.
 */
class TraceTests {
    private static final String REQUEST = """
            { "name": "traced", "topology": { "preset": "validation-2c" },
              "cgroups": [ { "path": "/g", "cpuMax": "50000 100000" } ],
              "workloads": [ { "name": "w", "cgroup": "/g", "type": "cpu-bound", "threads": 2 } ],
              "durationMs": 500, "seed": 3, "trace": %s,
              "variants": [ { "label": "a", "kernel": { "profile": "6.6" } },
                            { "label": "b", "kernel": { "profile": "6.6", "hz": 1000 } } ] }""";

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
                double run = 0;
                double throttled = 0;
                for (JsonNode e : trace.path("traceEvents")) {
                    if (!e.path("ph").asString().equals("X") || e.path("pid").asInt() != v) {
                        continue;
                    }
                    if (e.path("cat").asString().equals("run")) {
                        run += e.path("dur").asDouble();
                        assertThat(e.path("tid").asInt()).isBetween(0, 1);
                    } else if (!e.path("args").path("open").asBoolean()) {
                        // (cpu.stat counts an interval when it ends)
                        throttled += e.path("dur").asDouble();
                    }
                }
                long usage = variant.path("cgroups").get(0).path("cpuStat").path("usageUsec").asLong();
                long thr = 0;
                for (JsonNode cg : variant.path("cgroups")) {
                    if (cg.path("path").asString().equals("/g")) {
                        thr = cg.path("cpuStat").path("throttledUsec").asLong();
                    }
                }
                // (a run slice holds the kernel time of its switch too, which is no task's CPU time)
                assertThat(run).as("variant %d run slices vs root usage", v).isCloseTo(usage,
                        org.assertj.core.api.Assertions.within(usage * 0.01));
                assertThat(throttled).as("variant %d throttled intervals", v).isCloseTo(thr,
                        org.assertj.core.api.Assertions.within(50.0));
                assertThat(thr).isPositive();

                String label = variant.path("label").asString();
                HttpResponse<String> f = http.get("/api/v1/simulations/" + id + "/trace?format=ftrace&variant="
                        + label);
                assertThat(f.statusCode()).as(f.body()).isEqualTo(200);
                assertThat(f.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
                FtraceReplay replay = FtraceReplay.of(f.body(), 2);
                long switches = replay.total(replay.switchesOut, replay.pids("w"));
                // (6.6 throttles cfs_rqs, so no task is parked at its pick: every switch is one the model counts)
                JsonNode w = variant.path("workloads").get(0);
                assertThat(switches).as("variant %s switches", label).isEqualTo(w.path("contextSwitches").asLong())
                        .isPositive();
                assertThat(replay.throttledNs.get("throttled /g") / 1000.0).as("variant %s markers", label)
                        .isCloseTo(thr, org.assertj.core.api.Assertions.within(50.0));
            }
            assertThat(http.get("/api/v1/simulations/" + id + "/trace?format=ftrace").body())
                    .isEqualTo(http.get("/api/v1/simulations/" + id + "/trace?format=ftrace&variant=a").body());
            HttpResponse<String> bad = http.get("/api/v1/simulations/" + id + "/trace?format=perfetto");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(Http.json(bad).path("errors").get(0).path("field").asString()).isEqualTo("format");
            HttpResponse<String> noVariant = http.get("/api/v1/simulations/" + id + "/trace?format=ftrace&variant=z");
            assertThat(noVariant.statusCode()).isEqualTo(400);
            assertThat(Http.json(noVariant).path("detail").asString()).contains("one of [a, b]");

            String plain = EndToEnd.submit(http, REQUEST.formatted("false"));
            http.awaitFinished(plain);
            assertThat(http.get("/api/v1/simulations/" + plain + "/trace").statusCode()).isEqualTo(404);
            assertThat(http.get("/api/v1/simulations/nope/trace").statusCode()).isEqualTo(404);
        }
    }
}
