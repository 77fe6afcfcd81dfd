package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A cancel racing a DELETE of the same queued simulation, over HTTP (issue 19, item 6). Only the cancel can end a
 * queued simulation (the only worker is busy with a long one), so it always takes effect, and the DELETE can only succeed
 * after it: the cancel must always be answered 200 CANCELLED. It was 404 when the DELETE removed the row between
 * the cancel's update and its reading of the row back. Each round's DELETE retries its 409 until the cancel lands.
 */
class CancelDeleteRaceTests {
    private static final int ROUNDS = 150;

    @Test
    void aCancelThatTookEffectIsAnsweredCancelledEvenWhenTheRowIsDeletedAtOnce() {
        List<String> properties = List.of("spring.datasource.url=jdbc:h2:mem:cancel-race;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.workers=1",
                "schedsim.warmup=0s", "logging.level.dev.schedsim=WARN");
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(ctx);
            String busy = EndToEnd.submit(http, EndToEnd.longRun("occupies-the-worker"));
            http.awaitRunningWithProgress(busy);
            for (int i = 0; i < ROUNDS; i++) {
                String id = EndToEnd.submit(http, QueueLimitTests.SMALL.formatted("race-" + i));
                CompletableFuture<HttpResponse<String>> delete = CompletableFuture.supplyAsync(() -> {
                    for (;;) {
                        HttpResponse<String> r = http.delete("/api/v1/simulations/" + id);
                        if (r.statusCode() != 409) {
                            return r;
                        }
                        Thread.onSpinWait();
                    }
                });
                HttpResponse<String> cancel = http.post("/api/v1/simulations/" + id + "/cancel", "");
                HttpResponse<String> deleted = delete.join();
                assertThat(cancel.statusCode()).as("round %d: %s", i, cancel.body()).isEqualTo(200);
                assertThat(Http.json(cancel).path("status").asString()).isEqualTo("CANCELLED");
                assertThat(deleted.statusCode()).as("round %d: %s", i, deleted.body()).isEqualTo(204);
                assertThat(http.get("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
            }
            http.cancel(busy);
        }
    }
}
