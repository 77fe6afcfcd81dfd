package dev.schedsim.queue;

import dev.schedsim.EndToEnd;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The end-to-end scenario on the PostgreSQL server {@link LocalPostgres} finds ({@code SPRING_DATASOURCE_URL}, or
 * one on 127.0.0.1:5432). Without one, {@link PostgresContainerEndToEndTests} uses Testcontainers when Docker is
 * there. In a schema of its own, dropped at the end: the shared database keeps no tables of this test.
 */
@EnabledIf(value = "dev.schedsim.queue.LocalPostgres#available",
        disabledReason = "no PostgreSQL: neither SPRING_DATASOURCE_URL nor one on 127.0.0.1:5432 (database test)")
class PostgresEndToEndTests {

    @Test
    void weightsDeterminismAndRestart() throws java.sql.SQLException {
        try (PostgresSchema schema = PostgresSchema.named("e2e_")) {
            List<String> properties = new java.util.ArrayList<>(schema.properties());
            properties.add("schedsim.poll-interval=20ms");
            String[] r;
            try (ConfigurableApplicationContext first = EndToEnd.start(properties)) {
                r = EndToEnd.fairShareTwice(EndToEnd.http(first));
            }
            try (ConfigurableApplicationContext second = EndToEnd.start(properties)) {
                EndToEnd.stillThere(EndToEnd.http(second), r[0], r[1]);
            }
        }
    }
}
