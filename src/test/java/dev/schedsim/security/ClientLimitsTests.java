package dev.schedsim.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * One client over its own limits gets 429 with Retry-After and a problem naming the limit, while another client
 * still submits: {@code schedsim.security.max-queued-per-client} (queued runs, counted from the database) and
 * {@code schedsim.security.submissions-per-minute}. The only worker is kept busy by the admin's long simulation, so
 * that everything the clients submit stays queued.
 */
class ClientLimitsTests {
    static final String ALICE = "alice-submit-secret-0001";
    static final String BOB = "bob-submit-secret-000001";
    static final String ROOT = "root-admin-secret-000001";

    @Test
    void aClientOverItsLimitsGets429WhileAnotherStillSubmits() {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:client-limits;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.workers=1", "schedsim.warmup=0s",
                "schedsim.poll-interval=20ms", "schedsim.progress-interval=50ms",
                "schedsim.security.api-keys=alice:" + ALICE + ":submit,bob:" + BOB + ":submit,root:" + ROOT + ":admin",
                "schedsim.security.max-queued-per-client=3", "schedsim.security.submissions-per-minute=4"))) {
            Http http = EndToEnd.http(ctx);
            Http alice = http.withKey(ALICE);
            Http bob = http.withKey(BOB);
            Http root = http.withKey(ROOT);
            String running = EndToEnd.submit(root, EndToEnd.longRun("occupies-the-worker"));
            List<String> queued = new ArrayList<>();
            try {
                root.awaitRunningWithProgress(running);
                for (int i = 0; i < 3; i++) {
                    queued.add(EndToEnd.submit(alice, EndToEnd.FAIR_SHARE));
                }
                assertThat(Http.json(alice.get("/api/v1/simulations?status=QUEUED")).path("totalElements").asLong())
                        .isEqualTo(3);

                // A fourth queued run is over alice's queue (3 submissions of 4 per minute so far).
                HttpResponse<String> overQueue = alice.post("/api/v1/simulations", EndToEnd.FAIR_SHARE);
                assertLimit(overQueue, "schedsim.security.max-queued-per-client", 3);
                // bob has his own.
                queued.add(EndToEnd.submit(bob, EndToEnd.FAIR_SHARE));

                // Two cancelled make room in alice's queue: her fourth submission of the minute is taken ...
                alice.cancel(queued.get(0));
                alice.cancel(queued.get(1));
                queued.add(EndToEnd.submit(alice, EndToEnd.FAIR_SHARE));
                // ... and a fifth is over her rate, though her queue has room.
                HttpResponse<String> overRate = alice.post("/api/v1/simulations", EndToEnd.FAIR_SHARE);
                assertLimit(overRate, "schedsim.security.submissions-per-minute", 4);
                long retry = Long.parseLong(overRate.headers().firstValue("Retry-After").orElseThrow());
                assertThat(retry).isBetween(1L, 60L);
                // The scenario path counts the same way.
                assertLimit(alice.post("/api/v1/scenarios/seed-001-static-key/run", ""),
                        "schedsim.security.submissions-per-minute", 4);
                // Refused submissions left nothing behind; bob still submits.
                assertThat(Http.json(alice.get("/api/v1/simulations")).path("totalElements").asLong()).isEqualTo(4);
                queued.add(EndToEnd.submit(bob, EndToEnd.FAIR_SHARE));
                assertThat(Http.json(bob.get("/api/v1/simulations?status=QUEUED")).path("totalElements").asLong())
                        .isEqualTo(2);
            } finally {
                root.post("/api/v1/simulations/" + running + "/cancel", "");
                for (String id : queued) {
                    root.post("/api/v1/simulations/" + id + "/cancel", "");
                }
            }
        }
    }

    private static void assertLimit(HttpResponse<String> r, String limit, long value) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After")).isPresent();
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                c -> assertThat(c).startsWith("application/problem+json"));
        JsonNode p = Http.json(r);
        assertThat(p.path("type").asString()).isEqualTo("https://schedsim.dev/problems/client-limit");
        assertThat(p.path("limit").asString()).isEqualTo(limit);
        assertThat(p.path("value").asLong()).isEqualTo(value);
        assertThat(p.path("detail").asString()).contains(limit).contains("alice");
    }
}
