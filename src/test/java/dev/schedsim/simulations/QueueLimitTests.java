package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code schedsim.max-queued}: with the only worker busy on a real long simulation and the queue full, a
 * submission gets 503 problem+json with Retry-After; once a queued one is cancelled there is room again. The limit
 * counts runs: one queued simulation of one run leaves no room for a second of two runs under a limit of 2, and an
 * empty queue admits a simulation of more runs than the limit.
 */
class QueueLimitTests {
    static final String SMALL = """
            { "name": "%s", "topology": { "preset": "validation-2c" },
              "workloads": [ { "name": "w", "type": "cpu-bound", "threads": 2, "workUs": 1000 } ],
              "durationMs": 100 }""";
    static final String REPEATED = """
            { "name": "%s", "topology": { "preset": "validation-2c" },
              "workloads": [ { "name": "w", "type": "cpu-bound", "threads": 2, "workUs": 1000 } ],
              "durationMs": 100, "repetitions": %d }""";

    @Test
    void aFullQueueRejectsWith503UntilThereIsRoom() {
        List<String> properties = List.of("spring.datasource.url=jdbc:h2:mem:queue-limit;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.workers=1",
                "schedsim.max-queued=2", "schedsim.poll-interval=20ms", "schedsim.progress-interval=50ms");
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(ctx);
            String running = EndToEnd.submit(http, EndToEnd.longRun("occupies-the-worker"));
            String queued = null;
            try {
                http.awaitRunningWithProgress(running);
                queued = EndToEnd.submit(http, SMALL.formatted("waits"));
                assertThat(Http.json(http.get("/api/v1/simulations/" + queued)).path("status").asString())
                        .isEqualTo("QUEUED");

                HttpResponse<String> full = http.post("/api/v1/simulations", REPEATED.formatted("one-too-many", 2));
                assertThat(full.statusCode()).as(full.body()).isEqualTo(503);
                assertThat(full.headers().firstValue("Retry-After")).isPresent();
                assertThat(full.headers().firstValue("Content-Type")).hasValueSatisfying(
                        c -> assertThat(c).startsWith("application/problem+json"));
                assertThat(Http.json(full).path("type").asString()).isEqualTo("https://schedsim.dev/problems/queue-full");
                assertThat(Http.json(http.get("/api/v1/simulations?name=one-too-many")).path("totalElements")
                        .asLong()).isZero();

                // Cancelling the queued one makes room; the new one then runs once the worker is free.
                assertThat(http.cancel(queued).path("status").asString()).isEqualTo("CANCELLED");
                String admitted = EndToEnd.submit(http, REPEATED.formatted("admitted", 3));
                assertThat(http.cancel(running).path("status").asString()).isEqualTo("CANCELLED");
                JsonNode done = http.awaitFinished(admitted);
                assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            } finally {
                http.post("/api/v1/simulations/" + running + "/cancel", "");
            }
        }
    }
}
