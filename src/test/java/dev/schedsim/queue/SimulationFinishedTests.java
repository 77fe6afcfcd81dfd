package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A cancel takes its instant before it marks the job; a worker may start the job in between, so startedAt can be
 * after the cancel's instant (41 ms in a run of OpenApiContractTests, which logged Micrometer's "Timer measurements
 * cannot be negative" with its stack trace).
 */
class SimulationFinishedTests {

    @Test
    void aJobStartedAfterItsCancelsInstantRanForNone() {
        Instant cancelledAt = Instant.parse("2026-12-06T02:10:14.946Z");
        Instant startedAt = cancelledAt.plusMillis(41);
        SimulationFinished e = new SimulationFinished("id", "label", SimulationStatus.CANCELLED,
                Duration.between(startedAt, cancelledAt), 0, 0, null);
        assertThat(e.wallTime()).isEqualTo(Duration.ZERO);
        Timer timer = Timer.builder("t").register(new SimpleMeterRegistry());
        timer.record(e.wallTime());
        assertThat(timer.count()).isEqualTo(1);
    }

    @Test
    void aJobThatRanKeepsItsTime() {
        assertThat(new SimulationFinished("id", "label", SimulationStatus.SUCCEEDED, Duration.ofMillis(1032), 1, 1,
                "{}").wallTime()).isEqualTo(Duration.ofMillis(1032));
    }
}
