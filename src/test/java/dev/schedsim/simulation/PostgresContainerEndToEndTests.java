package dev.schedsim.simulation;

import dev.schedsim.EndToEnd;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.springframework.context.ConfigurableApplicationContext;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The end-to-end scenario on a Testcontainers PostgreSQL, when Docker is available and no PostgreSQL server is
 * configured through {@code SPRING_DATASOURCE_URL} (then {@link PostgresEndToEndTests} runs instead).
 */
@Testcontainers(disabledWithoutDocker = true)
@DisabledIfEnvironmentVariable(named = "SPRING_DATASOURCE_URL", matches = "jdbc:postgresql:.*",
        disabledReason = "a PostgreSQL server is configured; PostgresEndToEndTests uses it")
class PostgresContainerEndToEndTests {
    @Container
    static final PostgreSQLContainer POSTGRES = new PostgreSQLContainer("postgres:17-alpine");

    @Test
    void weightsDeterminismAndRestart() {
        List<String> properties = List.of("spring.datasource.url=" + POSTGRES.getJdbcUrl(),
                "spring.datasource.username=" + POSTGRES.getUsername(),
                "spring.datasource.password=" + POSTGRES.getPassword(), "schedsim.poll-interval=20ms");
        String[] r;
        try (ConfigurableApplicationContext first = EndToEnd.start(properties)) {
            r = EndToEnd.fairShareTwice(EndToEnd.http(first));
        }
        try (ConfigurableApplicationContext second = EndToEnd.start(properties)) {
            EndToEnd.stillThere(EndToEnd.http(second), r[0], r[1]);
        }
    }
}
