package dev.schedsim.simulations;

import static dev.schedsim.simulations.RequestValidationTests.CGROUPS;
import static dev.schedsim.simulations.RequestValidationTests.KERNEL;
import static dev.schedsim.simulations.RequestValidationTests.PRESET;
import static dev.schedsim.simulations.RequestValidationTests.WORKLOADS;
import static dev.schedsim.simulations.RequestValidationTests.cg;
import static dev.schedsim.simulations.RequestValidationTests.request;
import static dev.schedsim.simulations.RequestValidationTests.wl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.stream.Stream;
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
 * The inputs a new user got misleading answers to (issue "A new user's first hour", item 4), each with the one
 * error it now gets: the field, and a message that says what was expected. A quota alone is accepted, as the
 * kernel's cpu.max takes it.
 */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:misleading;DB_CLOSE_DELAY=-1",
        "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=1h"})
@AutoConfigureMockMvc
class MisleadingInputTests {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    static Stream<Arguments> inputs() {
        return Stream.of(
                // was: the right hint plus "workloads[1].cgroup: unknown cgroup '/b'"
                Arguments.of("units in cpuMax", RequestValidationTests.request(PRESET, KERNEL,
                        "[{\"path\": \"/b\", \"cpuMax\": \"50ms 100ms\"}]",
                        "[{\"name\": \"w\", \"cgroup\": \"/b\", \"type\": \"cpu-bound\"}]", "1000"),
                        "cgroups[0].cpuMax", "\"QUOTA PERIOD\""),
                // was: "Malformed JSON" with a Jackson sentence
                Arguments.of("durationMs with a unit", request(PRESET, KERNEL, CGROUPS, WORKLOADS, "\"10s\""),
                        "durationMs", "expected an integer, got \"10s\""),
                Arguments.of("a misspelt field", cg("[{\"path\": \"/a\", \"cpuMaxx\": \"max\"}]"), "cgroups[0].cpuMaxx",
                        "did you mean 'cpuMax'?"),
                Arguments.of("threads as a word", wl("{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": \"cpu-bound\","
                        + " \"threads\": \"two\"}"), "workloads[0].threads", "expected an integer, got \"two\""),
                Arguments.of("a topology as a list", request("[\"validation-2c\"]", KERNEL, CGROUPS, WORKLOADS,
                        "1000"), "topology", "expected an object"),
                // was: taken as unlimited
                Arguments.of("a negative quota", cg("[{\"path\": \"/a\", \"cpuMax\": \"-1 100000\"}]"),
                        "cgroups[0].cpuMax", "without a sign"),
                Arguments.of("a misspelt workload type", wl("{\"name\": \"w\", \"cgroup\": \"/a\", \"type\": "
                        + "\"cpubound\"}"), "workloads[0].type", "one of [cpu-bound"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void oneErrorThatSaysWhatWasExpected(String label, String body, String field, String message) throws Exception {
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON).content(body))
                .andReturn();
        JsonNode problem = JSON.readTree(r.getResponse().getContentAsString());
        assertThat(r.getResponse().getStatus()).as(label + ": " + problem).isEqualTo(400);
        assertThat(problem.path("errors").size()).as(label + ": " + problem).isEqualTo(1);
        JsonNode e = problem.path("errors").get(0);
        assertThat(e.path("field").asString()).as(label).isEqualTo(field);
        assertThat(e.path("message").asString()).as(label).contains(message);
    }

    @org.junit.jupiter.api.Test
    void aQuotaAloneIsAcceptedAsTheKernelTakesIt() throws Exception {
        MvcResult r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON)
                .content(cg("[{\"path\": \"/a\", \"cpuMax\": \"50000\"}]"))).andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(202);
    }
}
