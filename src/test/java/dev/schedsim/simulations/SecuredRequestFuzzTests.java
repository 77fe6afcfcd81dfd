package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * {@link RequestFuzzTests} with security on: the first 3 000 of the same requests, each with a submit key, through
 * the security filter chain (MockMvc runs the service's filters). The same properties hold: never a 500, every 4xx
 * a problem, and never a 401 or 403 for a good key. (The chain decides by header, method and path, which the fuzzer
 * does not vary; a quarter of the sequence keeps the build shorter.)
 */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:fuzz-secured;DB_CLOSE_DELAY=-1",
        "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.max-body-size=64KB",
        "schedsim.workers=1", "schedsim.poll-interval=1h", "schedsim.max-queued=100000",
        "schedsim.advice.poll-interval=1h",
        "schedsim.security.api-keys=fuzzer:" + SecuredRequestFuzzTests.KEY + ":submit",
        "logging.level.dev.schedsim=ERROR", "logging.level.org.springframework.web=ERROR"})
@AutoConfigureMockMvc
class SecuredRequestFuzzTests extends RequestFuzzTests {
    static final String KEY = "fuzzer-submit-secret-01";

    @Override
    int requests() {
        return 3_000;
    }

    /** The chain is in the way: without the key the same request is refused. */
    @Test
    void withoutTheKeyARequestIs401() throws Exception {
        MockHttpServletResponse r = mvc.perform(post("/api/v1/simulations").contentType(MediaType.APPLICATION_JSON)
                .content(SimulationExamples.SIMULATION)).andReturn().getResponse();
        assertThat(r.getStatus()).isEqualTo(401);
        assertThat(r.getContentType()).startsWith("application/problem+json");
    }

    @Override
    MockHttpServletRequestBuilder authorized(MockHttpServletRequestBuilder request) {
        return request.header("Authorization", "Bearer " + KEY);
    }
}
