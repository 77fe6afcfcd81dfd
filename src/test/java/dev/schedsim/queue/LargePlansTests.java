package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A plan repeats every variant's workloads, so a sweep over a long trace is many times its request: such a plan
 * is stored compressed (StoredPlan.encode) and still runs, its report served, after a restart that reads it back
 * from the database.
 */
class LargePlansTests {
    @TempDir
    Path dir;

    @Test
    void aPlanOfManyVariantsOfALongTraceIsStoredCompressedAndRuns() throws SQLException {
        String segments = IntStream.range(0, 8_000).mapToObj(i -> i % 2 == 0 ? "{\"runUs\": 200}" : "{\"sleepUs\": 800}")
                .collect(Collectors.joining(", "));
        String body = """
                {"name": "long-trace", "topology": {"preset": "validation-2c", "machineNoise": false},
                 "durationMs": 200, "cgroups": [{"path": "/t", "cpuMax": "50000 100000"}],
                 "workloads": [{"name": "w", "cgroup": "/t", "type": "trace", "segments": [%s]}],
                 "sweep": {"cgroup": "/t", "quotaUs": {"from": 10000, "to": 100000, "step": 10000}}}
                """.formatted(segments);
        String url = "jdbc:h2:file:" + dir.resolve("schedsim").toAbsolutePath() + ";AUTO_SERVER=FALSE";
        List<String> properties = List.of("spring.datasource.url=" + url, "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.poll-interval=20ms");
        String id;
        try (ConfigurableApplicationContext c = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(c);
            id = EndToEnd.submit(http, body);
            assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");
        }
        try (Connection db = DriverManager.getConnection(url, "sa", ""); Statement s = db.createStatement();
             ResultSet r = s.executeQuery("select plan_json from simulation_plan where simulation_id = '" + id
                     + "'")) {
            assertThat(r.next()).isTrue();
            String stored = r.getString(1);
            assertThat(stored).startsWith(StoredPlan.GZIP);
            // ten variants of 8 000 segments: well over a megabyte as text, a fraction of it stored
            assertThat(new StoredPlan(id, stored).getPlanJson().length()).isGreaterThan(1_000_000)
                    .isGreaterThan(10 * stored.length());
        }
        try (ConfigurableApplicationContext c = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(c);
            assertThat(http.get("/api/v1/simulations/" + id + "/report").statusCode()).isEqualTo(200);
        }
    }
}
