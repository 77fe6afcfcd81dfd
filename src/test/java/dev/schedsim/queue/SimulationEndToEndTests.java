package dev.schedsim.queue;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * End to end on the embedded H2 file database with the real engine: 2:1 weights give /a two thirds of the CPU,
 * the same request and seed give byte-identical results, and a restart on the same file keeps them.
 */
class SimulationEndToEndTests {
    @TempDir
    Path dir;

    @Test
    void weightsDeterminismAndRestart() {
        List<String> properties = List.of(
                "spring.datasource.url=jdbc:h2:file:" + dir.resolve("schedsim").toAbsolutePath()
                        + ";AUTO_SERVER=FALSE",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms");
        String id;
        String result;
        try (ConfigurableApplicationContext first = EndToEnd.start(properties)) {
            String[] r = EndToEnd.fairShareTwice(EndToEnd.http(first));
            id = r[0];
            result = r[1];
        }
        try (ConfigurableApplicationContext second = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(second);
            EndToEnd.stillThere(http, id, result);
        }
    }
}
