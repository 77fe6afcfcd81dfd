package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Jobs stored before plans were (migration V8) still load and run: a job's plan row removed, as a database of
 * that time has none, and the job put back in the queue, the service plans it from its stored request, runs it to
 * the same result byte for byte, and serves its report and metrics.
 */
class JobsStoredBeforePlansTests {
    @TempDir
    Path dir;

    @Test
    void aJobWithoutAStoredPlanIsPlannedFromItsRequest() throws SQLException {
        String url = "jdbc:h2:file:" + dir.resolve("schedsim").toAbsolutePath() + ";AUTO_SERVER=FALSE";
        List<String> properties = List.of("spring.datasource.url=" + url, "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.poll-interval=20ms");
        String id;
        String result;
        try (ConfigurableApplicationContext c = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(c);
            id = EndToEnd.submit(http, EndToEnd.FAIR_SHARE);
            assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");
            result = http.get("/api/v1/simulations/" + id + "/result").body();
        }
        try (Connection db = DriverManager.getConnection(url, "sa", ""); Statement s = db.createStatement()) {
            assertThat(s.executeUpdate("delete from simulation_plan where simulation_id = '" + id + "'"))
                    .isEqualTo(1);
            s.executeUpdate("delete from simulation_result where simulation_id = '" + id + "'");
            s.executeUpdate("delete from simulation_run_report where simulation_id = '" + id + "'");
            s.executeUpdate("update simulation_run set status = 'QUEUED', started_at = null, finished_at = null, "
                    + "worker_id = null, heartbeat_at = null, progress = 0, events = 0, simulated_us = 0 "
                    + "where simulation_id = '" + id + "'");
            s.executeUpdate("update simulation set status = 'QUEUED', started_at = null, finished_at = null, "
                    + "worker_id = null, heartbeat_at = null, progress = 0, events = 0 where id = '" + id + "'");
        }
        try (ConfigurableApplicationContext c = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(c);
            assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");
            assertThat(http.get("/api/v1/simulations/" + id + "/result").body()).isEqualTo(result);
            assertThat(http.get("/api/v1/simulations/" + id + "/report").statusCode()).isEqualTo(200);
            assertThat(http.get("/api/v1/simulations/" + id + "/metrics").statusCode()).isEqualTo(200);
        }
    }
}
