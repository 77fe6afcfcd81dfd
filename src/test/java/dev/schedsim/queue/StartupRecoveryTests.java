package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Recovery on the real engine: a row left RUNNING by a process that died goes back to QUEUED at the next start
 * and then finishes; a simulation running when the service stops is requeued and resumed by the next start;
 * with a shared database only rows whose heartbeat went stale are requeued, never one a live worker runs.
 */
class StartupRecoveryTests {
    private static final String SMALL_REQUEST = """
            {"name":"orphan","topology":{"preset":"validation-2c"},"workloads":[{"name":"w","type":"cpu-bound",\
            "threads":1,"workUs":30000}],"durationMs":100}""";
    private static final String INSERT_RUNNING = """
            insert into simulation (id, name, status, created_at, started_at, progress, request_json,
              request_hash, worker_id, heartbeat_at, events)
            values (?, 'orphan', 'RUNNING', ?, ?, 0.5, ?, 'h', ?, ?, 0)""";

    @TempDir
    Path dir;

    private String url(String name) {
        return "jdbc:h2:file:" + dir.resolve(name).toAbsolutePath() + ";AUTO_SERVER=FALSE";
    }

    private List<String> properties(String url, String... more) {
        List<String> p = new java.util.ArrayList<>(List.of("spring.datasource.url=" + url,
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms",
                "schedsim.progress-interval=50ms"));
        p.addAll(List.of(more));
        return p;
    }

    @Test
    void aRowLeftRunningIsRequeuedAndFinishes() {
        List<String> properties = properties(url("db"));
        String id = "00000000-0000-0000-0000-00000000dead";
        try (ConfigurableApplicationContext first = EndToEnd.start(properties)) {
            // What a process that died mid-run leaves behind: RUNNING, owned by a worker that is gone.
            Timestamp now = Timestamp.from(Instant.now());
            first.getBean(JdbcTemplate.class).update(INSERT_RUNNING, id, now, now, SMALL_REQUEST, "dead-process#0",
                    now);
            assertThat(first.getBean(SimulationJobs.class).findById(id).orElseThrow().getStatus())
                    .isEqualTo(SimulationStatus.RUNNING);
        }
        try (ConfigurableApplicationContext second = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(second);
            JsonNode done = http.awaitFinished(id);
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            assertThat(done.path("startedAt").isNull()).isFalse();
            assertThat(done.path("events").asLong()).isPositive();
            JsonNode variant = done.path("result").path("variants").get(0);
            assertThat(variant.path("label").asString()).isEqualTo("default");
            // The real engine ran the orphan's request: one thread, 30 ms of work, done well within 100 ms.
            JsonNode w = variant.path("workloads").get(0);
            assertThat(w.path("cpuUsec").asLong()).isBetween(30_000L, 31_500L);
            assertThat(w.path("completionUs").asLong()).isBetween(30_000L, 100_000L);
        }
    }

    @Test
    void aSimulationRunningAtShutdownIsRequeuedAndResumedByTheNextStart() throws SQLException {
        String url = url("restart");
        List<String> properties = properties(url, "schedsim.workers=1");
        String id;
        try (ConfigurableApplicationContext first = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(first);
            id = EndToEnd.submit(http, EndToEnd.longRun("survives-restart"));
            http.awaitRunningWithProgress(id);
        }
        // Stopped mid-run: back in the queue with nothing of the interrupted run left on the row.
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             PreparedStatement s = c.prepareStatement(
                     "select status, worker_id, progress, (select count(*) from simulation_result r"
                             + " where r.simulation_id = s.id) results from simulation s where id = ?")) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).isTrue();
                assertThat(r.getString("status")).isEqualTo("QUEUED");
                assertThat(r.getString("worker_id")).isNull();
                assertThat(r.getDouble("progress")).isZero();
                assertThat(r.getInt("results")).isZero();
            }
        }
        try (ConfigurableApplicationContext second = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(second);
            try {
                JsonNode running = http.awaitRunningWithProgress(id);
                assertThat(running.path("name").asString()).isEqualTo("survives-restart");
                assertThat(running.path("events").asLong()).isPositive();
            } finally {
                assertThat(http.cancel(id).path("status").asString()).isEqualTo("CANCELLED");
            }
        }
    }

    @Test
    void recoveryRequeuesOnlyStaleRowsWhenSharingTheDatabase() {
        List<String> properties = properties(url("shared"), "schedsim.recovery.requeue-all-on-startup=false",
                "schedsim.recovery.heartbeat-timeout=1m", "schedsim.workers=2");
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(ctx);
            SimulationJobs jobs = ctx.getBean(SimulationJobs.class);
            // A live row: a real simulation this instance is running, its heartbeat kept fresh by progress writes.
            String live = EndToEnd.submit(http, EndToEnd.longRun("live"));
            try {
                http.awaitRunningWithProgress(live);
                String liveWorker = jobs.findById(live).orElseThrow().getWorkerId();
                assertThat(liveWorker).isNotNull();
                // A stale row: left RUNNING two hours ago by an instance that is gone.
                Timestamp old = Timestamp.from(Instant.now().minusSeconds(7200));
                String stale = "00000000-0000-0000-0000-0000000057a1";
                ctx.getBean(JdbcTemplate.class).update(INSERT_RUNNING, stale, old, old, SMALL_REQUEST,
                        "other-instance#0", old);

                assertThat(ctx.getBean(QueueRecovery.class).recover()).isEqualTo(1);

                SimulationJob stillLive = jobs.findById(live).orElseThrow();
                assertThat(stillLive.getStatus()).isEqualTo(SimulationStatus.RUNNING);
                assertThat(stillLive.getWorkerId()).isEqualTo(liveWorker);
                // The requeued row is claimed by the idle worker and run by the real engine.
                JsonNode done = http.awaitFinished(stale);
                assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
                assertThat(done.path("events").asLong()).isPositive();
                // The live run was never interrupted: still RUNNING on the same worker, and further along.
                JsonNode later = http.awaitRunningWithProgress(live);
                assertThat(later.path("events").asLong()).isPositive();
                assertThat(jobs.findById(live).orElseThrow().getWorkerId()).isEqualTo(liveWorker);
            } finally {
                assertThat(http.cancel(live).path("status").asString()).isEqualTo("CANCELLED");
            }
        }
    }
}
