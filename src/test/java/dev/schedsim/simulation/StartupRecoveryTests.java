package dev.schedsim.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.FakeEngine;
import dev.schedsim.Http;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/** A row left RUNNING by a process that died goes back to QUEUED at the next start and then finishes. */
class StartupRecoveryTests {
    @TempDir
    Path dir;

    @Test
    void aRowLeftRunningIsRequeuedAndFinishes() {
        List<String> properties = List.of(
                "spring.datasource.url=jdbc:h2:file:" + dir.resolve("db").toAbsolutePath() + ";AUTO_SERVER=FALSE",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms");
        String id = "00000000-0000-0000-0000-00000000dead";
        String request = """
                {"name":"orphan","topology":{"preset":"validation-2c"},"workloads":[{"name":"w","type":"cpu-bound",\
                "threads":1}],"durationMs":100}""";
        try (ConfigurableApplicationContext first = EndToEnd.start(properties, FakeEngine.class)) {
            // What a process that died mid-run leaves behind: RUNNING, owned by a worker that is gone.
            first.getBean(JdbcTemplate.class).update("""
                    insert into simulation (id, name, status, created_at, started_at, progress, request_json,
                      request_hash, worker_id, heartbeat_at, events)
                    values (?, 'orphan', 'RUNNING', ?, ?, 0.5, ?, 'h', 'dead-process#0', ?, 0)""",
                    id, Timestamp.from(Instant.now()), Timestamp.from(Instant.now()), request,
                    Timestamp.from(Instant.now()));
            assertThat(first.getBean(SimulationJobs.class).findById(id).orElseThrow().getStatus())
                    .isEqualTo(SimulationStatus.RUNNING);
        }
        try (ConfigurableApplicationContext second = EndToEnd.start(properties, FakeEngine.class)) {
            Http http = EndToEnd.http(second);
            var done = http.awaitFinished(id);
            assertThat(done.path("status").asString()).isEqualTo("SUCCEEDED");
            assertThat(done.path("result").path("variants").get(0).path("label").asString()).isEqualTo("default");
            assertThat(done.path("startedAt").isNull()).isFalse();
        }
    }

    @Test
    void recoveryRequeuesOnlyStaleRowsWhenSharingTheDatabase() {
        List<String> properties = List.of(
                "spring.datasource.url=jdbc:h2:file:" + dir.resolve("db2").toAbsolutePath() + ";AUTO_SERVER=FALSE",
                "spring.datasource.username=sa", "spring.datasource.password=",
                "schedsim.recovery.requeue-all-on-startup=false", "schedsim.recovery.heartbeat-timeout=1h",
                "schedsim.workers=1");
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties, FakeEngine.class)) {
            JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
            String insert = """
                    insert into simulation (id, name, status, created_at, started_at, progress, request_json,
                      request_hash, worker_id, heartbeat_at, events)
                    values (?, 'x', 'RUNNING', ?, ?, 0, '{}', 'h', 'other-instance#0', ?, 0)""";
            Timestamp now = Timestamp.from(Instant.now());
            Timestamp old = Timestamp.from(Instant.now().minusSeconds(7200));
            jdbc.update(insert, "live", now, now, now);
            jdbc.update(insert, "stale", old, old, old);
            assertThat(ctx.getBean(SimulationQueue.class).recover()).isEqualTo(1);
            SimulationJobs jobs = ctx.getBean(SimulationJobs.class);
            assertThat(jobs.findById("live").orElseThrow().getStatus()).isEqualTo(SimulationStatus.RUNNING);
            assertThat(jobs.findById("stale").orElseThrow().getStatus()).isNotEqualTo(SimulationStatus.RUNNING);
        }
    }
}
