package dev.schedsim.simulation;

import dev.schedsim.EndToEnd;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The end-to-end scenario on the PostgreSQL server named by {@code SPRING_DATASOURCE_URL} (CI exports a local
 * one). Without it, {@link PostgresContainerEndToEndTests} uses Testcontainers when Docker is available.
 */
@EnabledIfEnvironmentVariable(named = "SPRING_DATASOURCE_URL", matches = "jdbc:postgresql:.*",
        disabledReason = "SPRING_DATASOURCE_URL does not name a PostgreSQL server")
class PostgresEndToEndTests {

    @Test
    void weightsDeterminismAndRestart() {
        // The datasource comes from SPRING_DATASOURCE_URL / _USERNAME / _PASSWORD.
        List<String> properties = List.of("schedsim.poll-interval=20ms");
        String[] r;
        try (ConfigurableApplicationContext first = EndToEnd.start(properties)) {
            r = EndToEnd.fairShareTwice(EndToEnd.http(first));
        }
        try (ConfigurableApplicationContext second = EndToEnd.start(properties)) {
            EndToEnd.stillThere(EndToEnd.http(second), r[0], r[1]);
        }
    }
}
