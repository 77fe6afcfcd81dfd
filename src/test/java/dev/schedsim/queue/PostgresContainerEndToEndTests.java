package dev.schedsim.queue;

import dev.schedsim.EndToEnd;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.springframework.context.ConfigurableApplicationContext;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The end-to-end scenario on a Testcontainers PostgreSQL, when Docker is available and no PostgreSQL server is
 * found by {@link LocalPostgres} (then {@link PostgresEndToEndTests} runs instead).
 */
@EnabledIf(value = "dev.schedsim.queue.LocalPostgres#dockerWithoutPostgres",
        disabledReason = "a PostgreSQL server is there (PostgresEndToEndTests uses it), or no Docker")
class PostgresContainerEndToEndTests {
    @Test
    void weightsDeterminismAndRestart() {
        // Started here, not by the Testcontainers extension, which probes for Docker (and logs an ERROR when
        // there is none) even when the test is disabled.
        try (PostgreSQLContainer pg = new PostgreSQLContainer("postgres:17-alpine")) {
            pg.start();
            run(pg);
        }
    }

    private static void run(PostgreSQLContainer postgres) {
        List<String> properties = List.of("spring.datasource.url=" + postgres.getJdbcUrl(),
                "spring.datasource.username=" + postgres.getUsername(),
                "spring.datasource.password=" + postgres.getPassword(), "schedsim.poll-interval=20ms");
        String[] r;
        try (ConfigurableApplicationContext first = EndToEnd.start(properties)) {
            r = EndToEnd.fairShareTwice(EndToEnd.http(first));
        }
        try (ConfigurableApplicationContext second = EndToEnd.start(properties)) {
            EndToEnd.stillThere(EndToEnd.http(second), r[0], r[1]);
        }
    }
}
