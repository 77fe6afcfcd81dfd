package dev.schedsim.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import dev.schedsim.simulations.SimulationExamples;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * rt-app import over HTTP: the shipped example becomes its phases workloads and taskgroup cgroups and runs as its
 * events say; every event kind SchedSim cannot simulate, every other policy and every key it cannot honour is a
 * 400 that names the task and the key, in one answer.
 */
class RtAppImportTests {
    private static ConfigurableApplicationContext context;
    private static Http http;

    @BeforeAll
    static void start() {
        context = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:rtapp", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.poll-interval=20ms"));
        http = EndToEnd.http(context);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    private static String request(String rtApp) {
        return """
                { "topology": { "preset": "validation-2c" }, "durationMs": 500,
                  "workloads": [ { "type": "rt-app", "rtApp": %s } ] }""".formatted(rtApp);
    }

    @Test
    void theExampleBecomesWorkloadsAndCgroupsAndRunsAsItsEventsSay() {
        String id = EndToEnd.submit(http, SimulationExamples.RT_APP);
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode accepted = done.path("request");
        assertThat(accepted.path("durationMs").asLong()).as("global.duration").isEqualTo(2000);
        List<String> paths = new ArrayList<>();
        accepted.path("cgroups").forEach(c -> paths.add(c.path("path").asString()));
        assertThat(paths).containsExactly("/batch", "/media");
        assertThat(accepted.path("cgroups").get(0).path("cpuMax").asString()).as("the request's limit kept")
                .isEqualTo("50000 100000");
        JsonNode video = workload(accepted, "video");
        assertThat(video.path("type").asString()).isEqualTo("phases");
        assertThat(video.path("cgroup").asString()).isEqualTo("/media");
        assertThat(video.path("nice").asInt()).isEqualTo(-5);
        assertThat(video.path("phases").size()).isEqualTo(2);
        assertThat(video.path("phases").get(0).path("loop").asInt()).isEqualTo(30);
        assertThat(video.path("phases").get(0).path("events").get(1).path("timer").path("periodUs").asLong())
                .isEqualTo(16667);
        JsonNode audio = workload(accepted, "audio");
        assertThat(audio.path("threads").asInt()).isEqualTo(2);
        assertThat(audio.path("cpus").asString()).isEqualTo("0");
        assertThat(audio.path("delayUs").asLong()).isEqualTo(1000);
        assertThat(audio.path("stopUs").asLong()).isEqualTo(2_000_000);
        assertThat(workload(accepted, "build").path("cgroup").asString()).isEqualTo("/batch");

        JsonNode result = done.path("result").path("variants").get(0);
        // audio: an absolute 5 ms timer per thread keeps 200 iterations a second each, whatever else runs on CPU 0
        assertThat(report(result, "audio").path("throughputPerSec").asDouble()).isCloseTo(400, within(8.0));
        // video: 30 frames of 4 ms in 16.667 ms (500 ms), then 50 ms asleep: 30 iterations + 1 per 550 ms
        assertThat(report(result, "video").path("throughputPerSec").asDouble()).isCloseTo(31 / 0.55, within(3.0));
        // build: a runtime is wall-clock, so the 0.5-CPU quota of /batch shows in its usage, not in its iterations
        double batch = 0;
        for (JsonNode c : result.path("cgroups")) {
            if (c.path("path").asString().equals("/batch")) {
                batch = c.path("cpuStat").path("usageUsec").asDouble();
            }
        }
        assertThat(batch / 2_000_000).as("/batch CPUs").isCloseTo(0.5, within(0.05));
        HttpResponse<String> f = http.get("/api/v1/simulations/" + id + "/trace?format=ftrace");
        assertThat(f.statusCode()).isEqualTo(200);
        assertThat(f.body()).contains("comm=audio pid=").contains("tracing_mark_write: G|");
    }

    @Test
    void everyEventSchedSimCannotSimulateIsRejectedByName() {
        List<String> kinds = List.of("lock", "unlock", "wait", "signal", "broad", "sync", "suspend", "resume",
                "memrun", "mem", "iorun", "yield", "barrier", "fork", "sem_post", "sem_wait");
        StringBuilder tasks = new StringBuilder();
        for (String k : kinds) {
            tasks.append(tasks.isEmpty() ? "" : ",").append("\"t_").append(k).append("\": {\"run\": 100, \"")
                    .append(k).append("0\": \"x\"}");
        }
        JsonNode problem = rejected(request("{\"tasks\": {" + tasks + "}}"));
        for (String k : kinds) {
            assertThat(problem.path("errors").toString()).as(k)
                    .contains("workloads[0].rtApp.tasks.t_" + k + "." + k + "0")
                    .contains("rt-app event '" + k + "' of task 't_" + k + "' cannot be simulated");
        }
        assertThat(problem.path("errors").size()).isEqualTo(kinds.size());
    }

    @Test
    void whatSchedSimCannotHonourIsRejectedNamingTaskAndKey() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("{\"policy\": \"SCHED_FIFO\", \"run\": 100}", "policy 'SCHED_FIFO' cannot be simulated"),
                Map.entry("{\"policy\": \"SCHED_DEADLINE\", \"run\": 100}", "policy 'SCHED_DEADLINE'"),
                Map.entry("{\"policy\": \"SCHED_RR\", \"run\": 100}", "policy 'SCHED_RR'"),
                Map.entry("{\"policy\": \"SCHED_BATCH\", \"run\": 100}", "policy 'SCHED_BATCH'"),
                Map.entry("{\"util_min\": 512, \"run\": 100}", "'util_min' cannot be simulated"),
                Map.entry("{\"dl-runtime\": 1000, \"run\": 100}", "'dl-runtime' cannot be simulated"),
                Map.entry("{\"nodes_membind\": [0], \"run\": 100}", "'nodes_membind' cannot be simulated"),
                Map.entry("{\"cpus\": [0], \"phases\": {\"a\": {\"cpus\": [1], \"run\": 100}}}",
                        "cpus that changes per phase"),
                Map.entry("{\"phases\": {\"a\": {\"taskgroup\": \"/x\", \"run\": 100}}}",
                        "taskgroup that changes per phase"),
                Map.entry("{\"priority\": 30, \"run\": 100}", "nice value, -20..19"),
                Map.entry("{\"runn\": 100, \"colour\": 3}", "unknown rt-app key 'colour'"),
                Map.entry("{\"loop\": 5}", "no run, runtime, sleep or timer event"),
                Map.entry("{\"run\": 100, \"timer\": {\"ref\": \"t\"}}", "the timer's period must be µs"));
        cases.forEach((task, message) -> {
            JsonNode problem = rejected(request("{\"tasks\": {\"one\": " + task + "}}"));
            assertThat(problem.path("errors").toString()).as(task).contains("task 'one'").contains(message)
                    .contains("workloads[0].rtApp.tasks.one");
        });
        JsonNode shared = rejected(request("""
                {"tasks": {"a": {"run": 100, "timer": {"ref": "tick", "period": 1000}},
                           "b": {"run": 100, "timer": {"ref": "tick", "period": 1000}}}}"""));
        assertThat(shared.path("errors").toString()).contains("a timer shared between tasks cannot be simulated");
        JsonNode policy = rejected(request("{\"global\": {\"default_policy\": \"SCHED_FIFO\"}, \"tasks\": "
                + "{\"a\": {\"run\": 100}}}"));
        assertThat(policy.path("errors").get(0).path("field").asString())
                .isEqualTo("workloads[0].rtApp.global.default_policy");
        assertThat(rejected(request("{\"tasks\": {}}")).path("errors").get(0).path("field").asString())
                .isEqualTo("workloads[0].rtApp.tasks");
    }

    @Test
    void aTaskWithoutPhasesLoopsForeverUnlessItGivesALoop() {
        String id = EndToEnd.submit(http, request("""
                {"tasks": {"forever": {"run": 1000, "sleep": 4000},
                           "thrice": {"loop": 3, "run": 1000, "sleep": 4000},
                           "none": {"instance": 0, "run": 1000}}}"""));
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(done.path("request").path("workloads").size()).as("instance 0 creates no thread").isEqualTo(2);
        JsonNode result = done.path("result").path("variants").get(0);
        assertThat(report(result, "forever").path("completionUs").isNull()).as("never finishes").isTrue();
        assertThat(report(result, "thrice").path("cpuUsec").asDouble()).isCloseTo(3000, within(100.0));
        assertThat(report(result, "thrice").path("completionUs").asDouble()).isCloseTo(15_150, within(300.0));
    }

    private static JsonNode rejected(String body) {
        HttpResponse<String> r = http.post("/api/v1/simulations", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        return Http.json(r);
    }

    private static JsonNode workload(JsonNode request, String name) {
        for (JsonNode w : request.path("workloads")) {
            if (w.path("name").asString().equals(name)) {
                return w;
            }
        }
        throw new AssertionError("no workload " + name + " in " + request);
    }

    private static JsonNode report(JsonNode variant, String name) {
        for (JsonNode w : variant.path("workloads")) {
            if (w.path("name").asString().equals(name)) {
                return w;
            }
        }
        throw new AssertionError("no workload " + name + " in " + variant);
    }
}
