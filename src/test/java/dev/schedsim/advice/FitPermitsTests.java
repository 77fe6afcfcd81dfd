package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import dev.schedsim.http.BusyException;
import dev.schedsim.http.ClientLimitException;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Observed advices are fitted while the request waits, on every CPU, outside the queue (issue 36: every request
 * pays for what it costs): at most schedsim.advice.max-concurrent-fits at once, one per client.
 */
class FitPermitsTests {
    @Test
    void oneFitPerClientAndAtMostTheBoundInAll() {
        FitPermits permits = new FitPermits(2);
        FitPermits.Permit alice = permits.take("alice");
        assertThatThrownBy(() -> permits.take("alice")).isInstanceOfSatisfying(ClientLimitException.class,
                e -> assertThat(e.limit()).isEqualTo("schedsim.advice.max-concurrent-fits"));
        FitPermits.Permit anonymous = permits.take(null);
        // both permits taken: bob, who has none running, is told the service is busy, not that he is over his
        assertThatThrownBy(() -> permits.take("bob")).isInstanceOf(BusyException.class)
                .hasMessageContaining("2 observed advices are being fitted already");
        alice.close();
        permits.take("bob").close();
        permits.take("alice").close();
        anonymous.close();
        // (a refused take left nothing held: both permits are free again)
        permits.take("carol");
        permits.take("dave");
    }

    /** Over HTTP: with no fit allowed, an observed advice is 503 with Retry-After; a described one needs none. */
    @Test
    void anObservedAdviceBeyondTheBoundIs503AndADescribedOneIsAccepted() {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:fit-permits;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.warmup=0s", "schedsim.advice.max-concurrent-fits=0",
                "schedsim.advice.poll-interval=1h"))) {
            Http http = EndToEnd.http(ctx);
            HttpResponse<String> r = http.post("/api/v1/advice", AdviceExamples.ADVICE_OBSERVED);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
            assertThat(r.headers().firstValue("Retry-After")).hasValue("5");
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                    t -> assertThat(t).startsWith("application/problem+json"));
            assertThat(Http.json(r).path("detail").asString()).contains("schedsim.advice.max-concurrent-fits");
            HttpResponse<String> described = http.post("/api/v1/advice", AdviceExamples.ADVICE);
            assertThat(described.statusCode()).as(described.body()).isEqualTo(202);
        }
    }
}
