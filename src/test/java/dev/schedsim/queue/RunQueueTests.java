package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Runs as the queue's units of work, on the real engine: a simulation's variant × repetition runs are run and
 * stored separately and assembled into one result; a run whose worker died is claimed again after the heartbeat
 * timeout; a cancel written to the database by another instance stops a running engine at its next heartbeat.
 */
class RunQueueTests {
    static final String TWO_BY_TWO = """
            {"name":"runs","topology":{"preset":"validation-2c"},
             "cgroups":[{"path":"/a","cpuMax":"50000 100000"}],
             "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound","threads":2}],
             "durationMs":300,"seed":5,"repetitions":2,
             "variants":[{"label":"old","kernel":{"profile":"6.1"}},{"label":"new","kernel":{"profile":"6.18"}}]}""";

    @TempDir
    Path dir;

    private List<String> properties(String... more) {
        List<String> p = new java.util.ArrayList<>(List.of(
                "spring.datasource.url=jdbc:h2:file:" + dir.resolve("db").toAbsolutePath() + ";AUTO_SERVER=FALSE",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms",
                "schedsim.progress-interval=100ms", "schedsim.recovery.heartbeat-timeout=1s"));
        p.addAll(List.of(more));
        return p;
    }

    @Test
    void eachVariantRepetitionIsOneRunAndTheResultIsAssembledFromTheStoredReports() {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties("schedsim.workers=2"))) {
            Http http = EndToEnd.http(ctx);
            String id = EndToEnd.submit(http, TWO_BY_TWO);
            JsonNode done = http.awaitFinished(id);
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            assertThat(done.path("progress").asDouble()).isEqualTo(1.0);
            List<SimulationRun> runs = ctx.getBean(SimulationRuns.class).findBySimulationIdOrderByRunIndex(id);
            assertThat(runs).hasSize(4).allSatisfy(r -> {
                assertThat(r.getStatus()).isEqualTo(SimulationStatus.SUCCEEDED);
                assertThat(r.getAttempts()).isEqualTo(1);
            });
            List<SimulationRunReport> reports = ctx.getBean(SimulationRunReports.class)
                    .findBySimulationIdOrderByRunIndex(id);
            assertThat(reports).extracting(SimulationRunReport::getRunIndex).containsExactly(0, 1, 2, 3);
            assertThat(reports).allSatisfy(r -> assertThat(r.getReportJson()).contains("\"events\""));
            assertThat(done.path("events").asLong()).isEqualTo(runs.stream().mapToLong(SimulationRun::getEvents)
                    .sum());
            JsonNode variants = done.path("result").path("variants");
            assertThat(variants.size()).isEqualTo(2);
            assertThat(variants.get(1).path("runs").size()).isEqualTo(2);
            assertThat(done.path("result").path("comparison").size()).isPositive();
            // The same request again gives byte-identical results whichever workers ran which runs.
            String again = EndToEnd.submit(http, TWO_BY_TWO);
            http.awaitFinished(again);
            assertThat(http.get("/api/v1/simulations/" + again + "/result").body())
                    .isEqualTo(http.get("/api/v1/simulations/" + id + "/result").body());
        }
    }

    @Test
    void aRunWhoseWorkerDiedIsClaimedAgainAfterTheHeartbeatTimeout() {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties(
                "schedsim.recovery.requeue-all-on-startup=false", "schedsim.workers=1"))) {
            Http http = EndToEnd.http(ctx);
            JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
            String id = EndToEnd.submit(http, TWO_BY_TWO.replace("\"repetitions\":2", "\"repetitions\":1"));
            // Pretend run 1 was claimed by a worker of another instance that then died (heartbeat stops).
            Timestamp old = Timestamp.from(Instant.now().minusSeconds(5));
            int stolen = jdbc.update("update simulation_run set status = 'RUNNING', worker_id = 'dead#0', "
                    + "heartbeat_at = ?, attempts = 1 where simulation_id = ? and run_index = 1 "
                    + "and status = 'QUEUED'", old, id);
            JsonNode done = http.awaitFinished(id);
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            if (stolen == 1) {
                SimulationRun run = ctx.getBean(SimulationRuns.class).findBySimulationIdOrderByRunIndex(id).get(1);
                assertThat(run.getAttempts()).isEqualTo(2);
                assertThat(run.getWorkerId()).isNotEqualTo("dead#0");
            }
        }
    }

    @Test
    void aSimulationWhoseLastRunEndedButWasNotSettledIsSettledByTheReaper() {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties(
                "schedsim.recovery.requeue-all-on-startup=false", "schedsim.workers=1"))) {
            Http http = EndToEnd.http(ctx);
            String id = EndToEnd.submit(http, TWO_BY_TWO);
            assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");
            String result = http.get("/api/v1/simulations/" + id + "/result").body();
            // What a worker killed between storing the last run and settling the simulation leaves behind.
            Timestamp old = Timestamp.from(Instant.now().minusSeconds(5));
            JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
            jdbc.update("delete from simulation_result where simulation_id = ?", id);
            jdbc.update("update simulation set status = 'RUNNING', finished_at = null, heartbeat_at = ? where id = ?",
                    old, id);
            JsonNode done = http.awaitFinished(id);
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            assertThat(http.get("/api/v1/simulations/" + id + "/result").body()).isEqualTo(result);
        }
    }

    @Test
    void aCancelMadeOnAnotherInstanceStopsTheRunningEngine() {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(properties("schedsim.workers=1"))) {
            Http http = EndToEnd.http(ctx);
            String id = EndToEnd.submit(http, EndToEnd.longRun("cancelled-elsewhere"));
            http.awaitRunningWithProgress(id);
            // What POST …/cancel on another instance writes; this instance's flag is never set.
            JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
            Timestamp now = Timestamp.from(Instant.now());
            jdbc.update("update simulation set status = 'CANCELLED', finished_at = ? where id = ?", now, id);
            jdbc.update("update simulation_run set status = 'CANCELLED', finished_at = ? where simulation_id = ?",
                    now, id);
            // The only worker is free again once the engine noticed: a small simulation then runs.
            String next = EndToEnd.submit(http, TWO_BY_TWO.replace("\"repetitions\":2", "\"repetitions\":1"));
            JsonNode done = http.awaitFinished(next);
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("CANCELLED");
        }
    }
}
