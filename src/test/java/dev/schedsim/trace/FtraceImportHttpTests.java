package dev.schedsim.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * ftrace import over HTTP: the real recording of src/test/resources/ftrace, sent gzip-compressed, becomes a trace
 * workload per selected thread in the cgroup its comm maps to, the accepted request lists what the import skipped,
 * and the simulation replays each thread's CPU time; a selection that takes nothing, and a body that is not gzip
 * though it says so, are 400s.
 */
class FtraceImportHttpTests {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static ConfigurableApplicationContext context;
    private static Http http;
    private static int port;

    @BeforeAll
    static void start() {
        context = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:ftraceimport",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms"));
        http = EndToEnd.http(context);
        port = ((org.springframework.boot.web.server.context.WebServerApplicationContext) context).getWebServer()
                .getPort();
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    private static String recording() throws IOException {
        try (var in = FtraceImportHttpTests.class.getResourceAsStream("/ftrace/periodic-and-spin.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String request(String select) throws IOException {
        ObjectNode w = JSON.createObjectNode().put("type", "ftrace").put("ftrace",
                recording());
        w.putArray("select").add(select);
        w.putObject("cgroupMap").put("ss-spin", "/spin");
        ObjectNode r = JSON.createObjectNode().put("name", "replay").put("durationMs", 1000);
        r.putObject("topology").put("preset", "validation-2c");
        r.putArray("cgroups").addObject().put("path", "/spin").put("cpuMax", "20000 100000");
        r.putArray("workloads").add(w);
        return JSON.writeValueAsString(r);
    }

    private static HttpResponse<String> postGzip(byte[] body) {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/simulations"))
                .header("Content-Type", "application/json").header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    private static byte[] gzip(String s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(s.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    @Test
    void aGzipRecordingBecomesTraceWorkloadsThatReplayItsThreads() throws IOException {
        HttpResponse<String> r = postGzip(gzip(request("ss-*")));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String id = Http.json(r).path("id").asString();
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode accepted = done.path("request");
        assertThat(accepted.path("workloads").size()).isEqualTo(2);
        JsonNode note = accepted.path("imports").get(0);
        assertThat(note.path("type").asString()).isEqualTo("ftrace");
        assertThat(note.path("source").asString()).isEqualTo("workloads[0]");
        assertThat(note.path("skipped").toString()).contains("lines that are not events").contains("sched_process_fork");
        JsonNode spin = null;
        long periodicRunUs = 0;
        for (JsonNode w : accepted.path("workloads")) {
            assertThat(w.path("type").asString()).isEqualTo("trace");
            if (w.path("name").asString().startsWith("ss-spin-")) {
                spin = w;
            } else {
                assertThat(w.path("name").asString()).startsWith("ss-periodic-");
                assertThat(w.path("cgroup").asString()).isEqualTo("/");
                for (JsonNode s : w.path("segments")) {
                    periodicRunUs += s.path("runUs").asLong();
                }
            }
        }
        assertThat(spin).isNotNull();
        assertThat(spin.path("cgroup").asString()).as("cgroupMap").isEqualTo("/spin");
        for (JsonNode w : done.path("result").path("variants").get(0).path("workloads")) {
            if (w.path("name").asString().startsWith("ss-periodic-")) {
                // (each replayed run also pays the model's kernel time of its wakeup: a few %)
                assertThat(w.path("cpuUsec").asDouble()).isCloseTo(periodicRunUs, within(periodicRunUs * 0.05));
            }
        }
        // Planning the accepted request again gives the same request: the import is not repeated.
        HttpResponse<String> again = http.post("/api/v1/simulations", accepted.toString());
        assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
        assertThat(Http.json(again).path("request").path("workloads")).isEqualTo(accepted.path("workloads"));
    }

    @Test
    void aSelectionThatTakesNothingAndABodyThatIsNotGzipAreRejected() throws IOException {
        HttpResponse<String> none = http.post("/api/v1/simulations", request("no-such-comm"));
        assertThat(none.statusCode()).as(none.body()).isEqualTo(400);
        assertThat(Http.json(none).path("errors").get(0).path("field").asString()).isEqualTo("workloads[0].ftrace");
        HttpResponse<String> bad = postGzip("{\"not\": \"gzip\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("gzip");
    }

    /**
     * A variant overrides fields of the workloads an import became, by name; an import (type rt-app or ftrace, or
     * their fields) in a variant's workloads is a 400 naming each field — not dropped, not half-applied.
     */
    @Test
    void aVariantOverridesImportedWorkloadsByNameButCannotImport() throws IOException {
        ObjectNode r = (ObjectNode) JSON.readTree(request("ss-*"));
        r.put("durationMs", 300);
        ArrayNode variants = r.putArray("variants");
        variants.addObject().put("label", "as-recorded");
        variants.addObject().put("label", "nicer").putArray("workloads").addObject()
                .put("name", "ss-spin-12797").put("nice", 5);
        HttpResponse<String> ok = http.post("/api/v1/simulations", JSON.writeValueAsString(r));
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(202);
        JsonNode done = http.awaitFinished(Http.json(ok).path("id").asString());
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.path("result").path("variants").size()).isEqualTo(2);

        assertThat(done.path("request").path("variants").get(1).path("workloads").get(0).path("nice").asInt())
                .isEqualTo(5);
        ObjectNode variant = (ObjectNode) variants.get(0);
        ArrayNode overrides = variant.putArray("workloads");
        overrides.addObject().put("name", "ss-spin-12797").put("type", "ftrace").put("ftrace", recording());
        overrides.addObject().put("name", "ss-periodic-12796").putArray("select").add("ss-periodic");
        overrides.addObject().put("name", "tasks").put("type", "rt-app").putObject("rtApp").putObject("tasks");
        HttpResponse<String> bad = http.post("/api/v1/simulations", JSON.writeValueAsString(r));
        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(400);
        List<String> fields = new java.util.ArrayList<>();
        for (JsonNode e : Http.json(bad).path("errors")) {
            fields.add(e.path("field").asString());
            assertThat(e.path("message").asString()).contains("imports lists them");
        }
        assertThat(fields).containsExactlyInAnyOrder("variants[0].workloads[0].type",
                "variants[0].workloads[0].ftrace", "variants[0].workloads[1].select",
                "variants[0].workloads[2].type", "variants[0].workloads[2].rtApp");
    }
}
