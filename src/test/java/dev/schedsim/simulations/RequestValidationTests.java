package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bad requests: each a 4xx problem+json naming the field, never a 500. The shipped examples are accepted and run
 * to completion on the real engine. H2 is pinned so that an exported {@code SPRING_DATASOURCE_URL} does not leak in.
 */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:validation;DB_CLOSE_DELAY=-1",
        "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.max-body-size=64KB",
        "schedsim.poll-interval=20ms"})
@AutoConfigureMockMvc
class RequestValidationTests {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    static String request(String topology, String kernel, String cgroups, String workloads, String durationMs) {
        return """
                { "name": "t", "topology": %s, "kernel": %s, "cgroups": %s, "workloads": %s, "durationMs": %s }
                """.formatted(topology, kernel, cgroups, workloads, durationMs);
    }

    static final String PRESET = "{\"preset\": \"validation-2c\"}";
    static final String KERNEL = "{}";
    static final String CGROUPS = "[{\"path\": \"/a\"}]";
    static final String WORKLOADS = "[{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": \"cpu-bound\", \"threads\": 2}]";

    static String cg(String cgroups) {
        return request(PRESET, KERNEL, cgroups, WORKLOADS, "1000");
    }

    /** The cg() request with a warm-up block. */
    static String withWarmup(String warmup) {
        return cg(CGROUPS).replace("\"durationMs\"", "\"warmup\": " + warmup + ", \"durationMs\"");
    }

    static String wl(String workload) {
        return request(PRESET, KERNEL, CGROUPS, "[" + workload + "]", "1000");
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(badBodies(), badCgroups(), badWorkloads(), badMachines()).flatMap(s -> s);
    }

    /** Bodies that are no request, or too large. */
    private static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("malformed JSON", "{\"name\": \"t\", ", 400, "$"),
                Arguments.of("not an object", "[1, 2]", 400, "$"),
                Arguments.of("body over the size limit", "{\"name\": \"" + "x".repeat(70_000) + "\"}", 413, null));
    }

    /** The cgroups: cpu.max, burst, weight, paths, counts. */
    private static Stream<Arguments> badCgroups() {
        return Stream.of(
                Arguments.of("quota below 1 ms", cg("[{\"path\": \"/a\", \"cpuMax\": \"500 100000\"}]"), 400,
                        "cgroups[0].cpuMax"),
                Arguments.of("period above 1 s", cg("[{\"path\": \"/a\", \"cpuMax\": \"100000 2000000\"}]"), 400,
                        "cgroups[0].cpuMax"),
                Arguments.of("cpu.max garbage", cg("[{\"path\": \"/a\", \"cpuMax\": \"lots\"}]"), 400,
                        "cgroups[0].cpuMax"),
                Arguments.of("limit on the root", cg("[{\"path\": \"/\", \"cpuMax\": \"50000 100000\"}, "
                        + "{\"path\": \"/a\"}]"), 400, "cgroups[0].cpuMax"),
                Arguments.of("burst above quota", cg("[{\"path\": \"/a\", \"cpuMax\": \"50000 100000\", "
                        + "\"cpuMaxBurst\": 60000}]"), 400, "cgroups[0].cpuMaxBurst"),
                Arguments.of("weight 0", cg("[{\"path\": \"/a\", \"cpuWeight\": 0}]"), 400, "cgroups[0].cpuWeight"),
                Arguments.of("cycle through ..", cg("[{\"path\": \"/a\"}, {\"path\": \"/a/../a\"}]"), 400,
                        "cgroups[1].path"),
                Arguments.of("empty segment", cg("[{\"path\": \"/a\"}, {\"path\": \"//x\"}]"), 400,
                        "cgroups[1].path"),
                Arguments.of("relative path", cg("[{\"path\": \"/a\"}, {\"path\": \"b\"}]"), 400, "cgroups[1].path"),
                Arguments.of("duplicate cgroup", cg("[{\"path\": \"/a\"}, {\"path\": \"/a\"}]"), 400,
                        "cgroups[1].path"),
                Arguments.of("unknown field", cg("[{\"path\": \"/a\", \"cpumax\": \"max\"}]"), 400,
                        "cgroups[0].cpumax"),
                Arguments.of("quota with a sign", cg("[{\"path\": \"/a\", \"cpuMax\": \"-1 100000\"}]"), 400,
                        "cgroups[0].cpuMax"),
                Arguments.of("cgroup 33 levels deep", cg("[{\"path\": \"" + "/a".repeat(33) + "\"}]"), 400,
                        "cgroups[0].path"),
                Arguments.of("cgroup path over PATH_MAX", cg("[{\"path\": \"" + ("/" + "b".repeat(200)).repeat(21)
                        + "\"}]"), 400, "cgroups[0].path"),
                Arguments.of("cgroup segment over NAME_MAX", cg("[{\"path\": \"/" + "c".repeat(256) + "\"}]"), 400,
                        "cgroups[0].path"),
                Arguments.of("over the cgroup count limit", cg(java.util.stream.IntStream.range(0, 1025)
                        .mapToObj(i -> "{\"path\": \"/c" + i + "\"}").collect(java.util.stream.Collectors.joining(
                                ", ", "[{\"path\": \"/a\"}, ", "]"))), 422, "cgroups"));
    }

    /** The workloads: cgroup, threads, type, nice, affinity, names, each type's fields, the work limit. */
    private static Stream<Arguments> badWorkloads() {
        return Stream.of(
                Arguments.of("unknown cgroup in a workload", wl("{\"name\": \"w\", \"cgroup\": \"/zzz\", "
                        + "\"type\": \"cpu-bound\", \"threads\": 1}"), 400, "workloads[0].cgroup"),
                Arguments.of("zero threads", wl("{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": \"cpu-bound\", "
                        + "\"threads\": 0}"), 400, "workloads[0].threads"),
                Arguments.of("threads not a number", wl("{\"name\": \"w\", \"type\": \"cpu-bound\", "
                        + "\"threads\": \"many\"}"), 400, "workloads[0].threads"),
                Arguments.of("unknown workload type", wl("{\"name\": \"w\", \"type\": \"cpu-hog\"}"), 400,
                        "workloads[0].type"),
                Arguments.of("nice out of range", wl("{\"name\": \"w\", \"type\": \"cpu-bound\", \"nice\": 25}"),
                        400, "workloads[0].nice"),
                Arguments.of("affinity outside the topology", wl("{\"name\": \"w\", \"type\": \"cpu-bound\", "
                        + "\"cpus\": \"0-3\"}"), 400, "workloads[0].cpus"),
                Arguments.of("periodic without runUs", wl("{\"name\": \"w\", \"type\": \"periodic\"}"), 400,
                        "workloads[0].runUs"),
                Arguments.of("trace segment with both", wl("{\"name\": \"w\", \"type\": \"trace\", "
                        + "\"segments\": [{\"runUs\": 5, \"sleepUs\": 5}]}"), 400, "workloads[0].segments[0]"),
                Arguments.of("NUL in a workload name", wl("{\"name\": \"a\\u0000b\", \"cgroup\": \"/a\", "
                        + "\"type\": \"cpu-bound\"}"), 400, "workloads[0].name"),
                Arguments.of("U+202E in a workload name", wl("{\"name\": \"web\\u202Egpj.exe\", "
                        + "\"cgroup\": \"/a\", \"type\": \"cpu-bound\"}"), 400, "workloads[0].name"),
                Arguments.of("over the work limit (runs x seconds x threads)", request(PRESET, KERNEL, CGROUPS,
                        "[{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": \"cpu-bound\", \"threads\": 1000}]",
                        "600000, \"repetitions\": 20"), 422, "workloads"),
                Arguments.of("too many message lines", wl("{\"name\": \"w\", \"cgroup\": \"/a\", "
                        + "\"type\": \"request-response\", \"pairs\": 1, \"serviceUs\": 10, \"messageLines\": "
                        + (dev.schedsim.request.SimulationRequest.MAX_MESSAGE_LINES + 1) + "}"), 400,
                        "workloads[0].messageLines"),
                Arguments.of("unknown run clock", wl("{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": \"periodic\", "
                        + "\"runUs\": 1000, \"sleepUs\": 4000, \"runClock\": \"wall\"}"), 400, "workloads[0].runClock"));
    }

    /** The machine, the kernel and the duration. */
    private static Stream<Arguments> badMachines() {
        return Stream.of(
                Arguments.of("unknown preset", request("{\"preset\": \"cray-1\"}", KERNEL, CGROUPS, WORKLOADS,
                        "1000"), 400, "topology.preset"),
                Arguments.of("unknown feature", request(PRESET, "{\"features\": {\"FOO\": true}}", CGROUPS,
                        WORKLOADS, "1000"), 400, "kernel.features.FOO"),
                Arguments.of("hz 333", request(PRESET, "{\"hz\": 333}", CGROUPS, WORKLOADS, "1000"), 400,
                        "kernel.hz"),
                Arguments.of("unknown kernel profile", request(PRESET, "{\"profile\": \"2.6\"}", CGROUPS,
                        WORKLOADS, "1000"), 400, "kernel.profile"),
                Arguments.of("negative duration", request(PRESET, KERNEL, CGROUPS, WORKLOADS, "-5"), 400,
                        "durationMs"),
                Arguments.of("too many warm-up runs", withWarmup("{\"runs\": 6}"), 400, "warmup.runs"),
                Arguments.of("negative warm-up gap", withWarmup("{\"gapMs\": -1}"), 400, "warmup.gapMs"),
                Arguments.of("zero topology count", request("{\"sockets\": 1, \"numaNodesPerSocket\": 1, "
                        + "\"llcsPerNumaNode\": 1, \"coresPerLlc\": 0, \"threadsPerCore\": 1}", KERNEL, CGROUPS,
                        WORKLOADS, "1000"), 400, "topology.coresPerLlc"),
                Arguments.of("bad SMT curve", request("{\"sockets\": 1, \"numaNodesPerSocket\": 1, "
                        + "\"llcsPerNumaNode\": 1, \"coresPerLlc\": 2, \"threadsPerCore\": 2, "
                        + "\"hardware\": {\"smtThroughput\": [1.0]}}", KERNEL, CGROUPS, WORKLOADS, "1000"), 400,
                        "topology.hardware.smtThroughput"),
                Arguments.of("over the CPU limit", request("{\"sockets\": 2, \"numaNodesPerSocket\": 1, "
                        + "\"llcsPerNumaNode\": 1, \"coresPerLlc\": 4096, \"threadsPerCore\": 1}", KERNEL, CGROUPS,
                        WORKLOADS, "1000"), 422, "topology"),
                Arguments.of("over the duration limit", request(PRESET, KERNEL, CGROUPS, WORKLOADS, "600001"), 422,
                        "durationMs"),
                Arguments.of("NUL in a preset", request("{\"preset\": \"validation-2c\\u0000\"}", KERNEL, CGROUPS,
                        WORKLOADS, "1000"), 400, "topology.preset"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badRequestIsAProblemNamingTheField(String label, String body, int status, String field) throws Exception {
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(body))
                .andReturn();
        assertThat(r.getResponse().getStatus()).as(label).isEqualTo(status);
        assertThat(r.getResponse().getContentType()).as(label).startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(r.getResponse().getContentAsString());
        assertThat(problem.path("type").asString()).startsWith("https://schedsim.dev/problems/");
        assertThat(problem.path("title").asString()).isNotEmpty();
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("detail").asString()).isNotEmpty().doesNotContain("Exception").doesNotContain("\tat ");
        if (field != null) {
            List<String> fields = new ArrayList<>();
            problem.path("errors").forEach(e -> fields.add(e.path("field").asString()));
            assertThat(fields).as(label + ": " + problem).contains(field);
        }
        if (status == 422) {
            assertThat(problem.path("limit").asString()).startsWith("schedsim.limits.");
            assertThat(problem.path("value").isNumber()).isTrue();
        }
    }

    @Test
    void everyViolationIsReportedAtOnce() throws Exception {
        String body = request(PRESET, "{\"hz\": 7, \"features\": {\"NOPE\": true}}",
                "[{\"path\": \"/a\", \"cpuMax\": \"10 100000\"}, {\"path\": \"x\"}]",
                "[{\"name\": \"w\", \"cgroup\": \"/q\", \"type\": \"cpu-bound\", \"threads\": 0}]", "0");
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(body))
                .andReturn();
        assertThat(r.getResponse().getStatus()).isEqualTo(400);
        JsonNode problem = JSON.readTree(r.getResponse().getContentAsString());
        List<String> fields = new ArrayList<>();
        problem.path("errors").forEach(e -> fields.add(e.path("field").asString()));
        assertThat(fields).contains("kernel.hz", "kernel.features.NOPE", "cgroups[0].cpuMax", "cgroups[1].path",
                "workloads[0].cgroup", "workloads[0].threads", "durationMs");
    }

    @Test
    void aCgroupWithBadLimitsIsStillKnownToItsWorkloads() throws Exception {
        // "50ms 100ms" is wrong; that the workload's cgroup /b is unknown would be a second, false error.
        String body = request(PRESET, KERNEL, "[{\"path\": \"/b\", \"cpuMax\": \"50ms 100ms\"}]",
                "[{\"name\": \"w\", \"cgroup\": \"/b\", \"type\": \"cpu-bound\"}]", "1000");
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(body))
                .andReturn();
        assertThat(r.getResponse().getStatus()).isEqualTo(400);
        JsonNode problem = JSON.readTree(r.getResponse().getContentAsString());
        assertThat(problem.path("errors").size()).as(problem.toString()).isEqualTo(1);
        assertThat(problem.path("errors").get(0).path("field").asString()).isEqualTo("cgroups[0].cpuMax");
    }

    @Test
    void aQuotaAloneTakesTheDefaultPeriodAsTheKernelDoes() throws Exception {
        String body = request(PRESET, KERNEL, "[{\"path\": \"/a\", \"cpuMax\": \"50000\"}]", WORKLOADS, "100");
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(body))
                .andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(202);
        JsonNode accepted = JSON.readTree(r.getResponse().getContentAsString());
        assertThat(accepted.path("request").path("cgroups").get(0).path("cpuMax").asString()).isEqualTo("50000");
    }

    @Test
    void aRunClockIsAcceptedAndKept() throws Exception {
        String body = wl("{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": \"periodic\", \"runUs\": 1000, "
                + "\"sleepUs\": 4000, \"runClock\": \"thread-cpu\"}");
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(body))
                .andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(202);
        JsonNode accepted = JSON.readTree(r.getResponse().getContentAsString());
        assertThat(accepted.path("request").path("workloads").get(0).path("runClock").asString())
                .isEqualTo("thread-cpu");
    }

    /**
     * A warm-up is accepted with its defaults written out (one run, no gap) and runs: the report covers the
     * reported run only, and differs from the same request's without warm-up (the machine's state carries over).
     */
    @Test
    void aWarmupIsAcceptedWithItsDefaultsAndReportsOnlyTheLastRun() throws Exception {
        String periodic = "[{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": \"periodic\", \"threads\": 4, "
                + "\"runUs\": 2000, \"sleepUs\": 3000}]";
        String plain = request(PRESET, KERNEL, "[{\"path\": \"/a\", \"cpuMax\": \"150000 100000\"}]", periodic, "2000");
        String warm = plain.replace("\"durationMs\"", "\"warmup\": {}, \"durationMs\"");
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(warm))
                .andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(202);
        JsonNode accepted = JSON.readTree(r.getResponse().getContentAsString());
        assertThat(accepted.path("request").path("warmup").path("runs").asInt()).isEqualTo(1);
        assertThat(accepted.path("request").path("warmup").path("gapMs").asLong()).isZero();
        JsonNode warmRun = finished(r.getResponse().getHeader("Location"));
        MvcResult p = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(plain))
                .andReturn();
        JsonNode plainRun = finished(p.getResponse().getHeader("Location"));
        assertThat(warmRun.path("status").asString()).as(warmRun.toString()).isEqualTo("SUCCEEDED");
        JsonNode w = warmRun.path("result").path("variants").get(0);
        JsonNode q = plainRun.path("result").path("variants").get(0);
        // One period timer's worth of periods: the warm-up run's are not counted.
        long periods = 0;
        for (JsonNode cg : w.path("cgroups")) {
            periods += "/a".equals(cg.path("path").asString()) ? cg.path("cpuStat").path("nrPeriods").asLong() : 0;
        }
        assertThat(periods).as(w.path("cgroups").toString()).isBetween(19L, 21L);
        assertThat(w.toString()).isNotEqualTo(q.toString());
    }

    @Test
    void theShippedExamplesAreAcceptedAndSucceed() throws Exception {
        List<String> locations = new ArrayList<>();
        for (String example : List.of(SimulationExamples.SIMULATION, SimulationExamples.VARIANTS, SimulationExamples.KUBERNETES,
                SimulationExamples.RT_APP, SimulationExamples.FTRACE, SimulationExamples.WARMUP)) {
            MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON)
                    .content(example)).andReturn();
            assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(202);
            assertThat(r.getResponse().getHeader("Location")).startsWith("/api/v1/simulations/");
            locations.add(r.getResponse().getHeader("Location"));
        }
        JsonNode simple = finished(locations.get(0));
        assertThat(simple.path("status").asString()).as(simple.toString()).isEqualTo("SUCCEEDED");
        assertThat(simple.path("result").path("variants").size()).isEqualTo(1);
        JsonNode variants = finished(locations.get(1));
        assertThat(variants.path("status").asString()).as(variants.toString()).isEqualTo("SUCCEEDED");
        assertThat(variants.path("result").path("variants").size()).isEqualTo(2);
        assertThat(variants.path("result").path("comparison").size()).isPositive();
        JsonNode pod = finished(locations.get(2));
        assertThat(pod.path("status").asString()).as(pod.toString()).isEqualTo("SUCCEEDED");
        assertThat(pod.path("result").path("variants").get(0).path("cadvisor").size()).isEqualTo(6); // / and the pod's five
        JsonNode rtApp = finished(locations.get(3));
        assertThat(rtApp.path("status").asString()).as(rtApp.toString()).isEqualTo("SUCCEEDED");
        assertThat(rtApp.path("result").path("variants").get(0).path("workloads").size()).isEqualTo(3);
        JsonNode ftrace = finished(locations.get(4));
        assertThat(ftrace.path("status").asString()).as(ftrace.toString()).isEqualTo("SUCCEEDED");
        assertThat(ftrace.path("request").path("workloads").get(0).path("cgroup").asString()).isEqualTo("/rec");
        // the warm-up example: its warm-up accepted as given, and only the run after it reported
        JsonNode warm = finished(locations.get(5));
        assertThat(warm.path("status").asString()).as(warm.toString()).isEqualTo("SUCCEEDED");
        JsonNode given = JSON.readTree(SimulationExamples.WARMUP).path("warmup");
        assertThat(given.path("runs").asInt()).isPositive();
        assertThat(warm.path("request").path("warmup")).isEqualTo(given);
        assertThat(warm.path("result").path("variants").get(0).path("simulatedUs").asLong())
                .isEqualTo(JSON.readTree(SimulationExamples.WARMUP).path("durationMs").asLong() * 1000);
    }

    /** Polls the simulation at {@code location} until its status is final (bounded by a count). */
    private JsonNode finished(String location) throws Exception {
        for (int i = 0; i < 6000; i++) {
            JsonNode n = JSON.readTree(mvc.perform(get(location)).andReturn().getResponse().getContentAsString());
            String status = n.path("status").asString();
            if (!status.equals("QUEUED") && !status.equals("RUNNING")) {
                return n;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(location + " did not finish");
    }
}
