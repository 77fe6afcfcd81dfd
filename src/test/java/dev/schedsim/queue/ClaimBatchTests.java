package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claiming runs in batches, with the service's workers stopped so that the test claims: a claim takes the
 * runs that follow the oldest queued one in the same simulation, up to the batch size; a claim not committed yet
 * holds only the runs it takes, so another worker's claim meanwhile takes the next ones instead of finding
 * nothing (H2 locked every queued row for a {@code FOR UPDATE} claim); the runner keeps a batch within one
 * variant; a batch interrupted by shutdown gives every run it holds back to the queue, and so does, for the runs
 * it has not started, one that runs past twice its time; while a run is long, the batch's other runs keep their
 * heartbeat. On H2, and the first checks also on the PostgreSQL server {@link LocalPostgres} finds
 * (CI) in a schema of its own.
 */
class ClaimBatchTests {
    /** Two variants × three repetitions: runs 0–2 are variant 0, runs 3–5 variant 1 (100 ms each). */
    private static final String SIX = RunQueueTests.TWO_BY_TWO
            .replace("\"repetitions\":2", "\"repetitions\":3").replace("\"durationMs\":300", "\"durationMs\":100")
            .replace("\"name\":\"runs\"", "\"name\":\"six\"");
    /** Another simulation, of two variants × one repetition. */
    private static final String TWO = SIX.replace("\"repetitions\":3", "\"repetitions\":1")
            .replace("\"name\":\"six\"", "\"name\":\"two\"");

    @TempDir
    Path dir;

    @Test
    void onH2() {
        withService(h2(), this::checks);
    }

    /** While a run of a batch runs long, its heartbeat also keeps the batch's other runs from the reaper. */
    @Test
    void aLongRunKeepsTheOtherRunsOfItsBatchAlive() {
        // (a run claimed here but never run: its 2 × 600 s is beyond the admission's event budget, raised for it)
        withService(h2("schedsim.progress-interval=50ms", "schedsim.limits.max-submission-events=100000000000"), ctx -> {
            SimulationQueue queue = ctx.getBean(SimulationQueue.class);
            JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
            String id = EndToEnd.submit(EndToEnd.http(ctx), EndToEnd.longRun("held")
                    .replace("\"durationMs\": 600000", "\"durationMs\": 600000, \"repetitions\": 2"));
            SimulationQueue.Batch batch = queue.claim("w#0", (s, j, f) -> 2).orElseThrow();
            assertThat(batch.runs()).hasSize(2);
            java.sql.Timestamp claimed = heartbeat(jdbc, id, 1);
            java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
            CompletableFuture<Void> running = CompletableFuture.runAsync(
                    () -> ctx.getBean(BatchRunner.class).run(batch, "w#0", stopping::get));
            try {
                // Run 0 is in the engine; run 1 waits, RUNNING, and its heartbeat moves on.
                int polls = 0;
                while (!heartbeat(jdbc, id, 1).after(claimed)) {
                    assertThat(++polls).as("the waiting run's heartbeat never moved").isLessThan(6000);
                    assertThat(running).isNotDone();
                    java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
                }
            } finally {
                stopping.set(true);
                running.join();
            }
            assertThat(statuses(jdbc, id)).containsOnly("QUEUED");
        });
    }

    /**
     * A batch that takes longer than twice {@code schedsim.claim-batch} (its estimate was wrong) gives back the
     * runs it has not started. With 1 ns, any run is longer.
     */
    @Test
    void aBatchPastTwiceTheClaimBatchGivesBackWhatItDidNotStart() {
        withService(h2("schedsim.claim-batch=1ns"), ctx -> {
            SimulationQueue queue = ctx.getBean(SimulationQueue.class);
            JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
            String id = EndToEnd.submit(EndToEnd.http(ctx), SIX);
            SimulationQueue.Batch batch = queue.claim("w#0", (s, j, f) -> 3).orElseThrow();
            assertThat(batch.runs()).hasSize(3);
            ctx.getBean(BatchRunner.class).run(batch, "w#0", () -> false);
            assertThat(statuses(jdbc, id)).containsExactly("SUCCEEDED", "QUEUED", "QUEUED", "QUEUED", "QUEUED",
                    "QUEUED");
            assertThat(jdbc.queryForObject("select status from simulation where id = ?", String.class, id))
                    .isEqualTo("RUNNING");
            // The runs given back are claimed again like any queued run.
            assertThat(indexes(queue.claim("w#1", (s, j, f) -> 2), id)).containsExactly(1, 2);
        });
    }

    private List<String> h2(String... more) {
        List<String> p = new java.util.ArrayList<>(List.of("spring.datasource.url=jdbc:h2:file:"
                + dir.resolve("db").toAbsolutePath() + ";AUTO_SERVER=FALSE", "spring.datasource.username=sa",
                "spring.datasource.password="));
        p.addAll(List.of(more));
        return p;
    }

    private static java.sql.Timestamp heartbeat(JdbcTemplate jdbc, String simulation, int run) {
        return jdbc.queryForObject("select heartbeat_at from simulation_run where simulation_id = ? and run_index = ?",
                java.sql.Timestamp.class, simulation, run);
    }

    @Test
    @EnabledIf(value = "dev.schedsim.queue.LocalPostgres#available",
            disabledReason = "no PostgreSQL: neither SPRING_DATASOURCE_URL nor one on 127.0.0.1:5432 (database test)")
    void onPostgres() throws SQLException {
        try (PostgresSchema schema = PostgresSchema.named("claims_")) {
            withService(List.of("spring.datasource.url=" + schema.urlInSchema(), "spring.flyway.schemas="
                    + schema.name(), "spring.datasource.username=" + schema.user(),
                    "spring.datasource.password=" + schema.password()), this::checks);
        }
    }

    private void withService(List<String> database, Consumer<ConfigurableApplicationContext> checks) {
        List<String> p = new java.util.ArrayList<>(database);
        p.add("schedsim.warmup=0s");
        if (p.stream().noneMatch(e -> e.startsWith("schedsim.claim-batch="))) {
            p.add("schedsim.claim-batch=1h");
        }
        try (ConfigurableApplicationContext ctx = EndToEnd.start(p)) {
            ctx.getBean(SimulationWorkers.class).stop();
            checks.accept(ctx);
        }
    }

    private void checks(ConfigurableApplicationContext ctx) {
        SimulationQueue queue = ctx.getBean(SimulationQueue.class);
        BatchRunner runner = ctx.getBean(BatchRunner.class);
        BatchSizer sizer = ctx.getBean(BatchSizer.class);
        JdbcTemplate jdbc = ctx.getBean(JdbcTemplate.class);
        Http http = EndToEnd.http(ctx);
        String six = EndToEnd.submit(http, SIX);
        String two = EndToEnd.submit(http, TWO);

        // Up to the batch size, and never into the next simulation.
        assertThat(indexes(queue.claim("w#0", (s, j, f) -> 2), six)).containsExactly(0, 1);

        // A claim not committed yet holds only what it takes: another claim meanwhile takes the next runs.
        TransactionTemplate transactions = ctx.getBean(TransactionTemplate.class);
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Optional<SimulationQueue.Batch>> held = CompletableFuture.supplyAsync(
                () -> transactions.execute(tx -> {
                    Optional<SimulationQueue.Batch> b = queue.claim("w#1", (s, j, f) -> 2);
                    claimed.countDown();
                    await(release);
                    return b;
                }));
        try {
            assertThat(await(claimed)).isTrue();
            assertThat(indexes(queue.claim("w#2", (s, j, f) -> 10), six)).containsExactly(4, 5);
        } finally {
            release.countDown();
        }
        assertThat(indexes(held.join(), six)).containsExactly(2, 3);
        assertThat(indexes(queue.claim("w#3", (s, j, f) -> 10), two)).containsExactly(0, 1);
        assertThat(queue.claim("w#3", (s, j, f) -> 10)).isEmpty();
        assertThat(jdbc.queryForList("select worker_id from simulation_run where simulation_id = ? "
                + "order by run_index", String.class, six))
                .containsExactly("w#0", "w#0", "w#1", "w#1", "w#2", "w#2");

        // A batch interrupted by shutdown gives back every run it holds, and its simulation is queued again.
        jdbc.update("update simulation_run set status = 'QUEUED', worker_id = null where simulation_id = ?", six);
        SimulationQueue.Batch batch = queue.claim("w#4", (s, j, f) -> 3).orElseThrow();
        assertThat(batch.runs()).hasSize(3);
        runner.run(batch, "w#4", () -> true);
        assertThat(statuses(jdbc, six)).containsOnly("QUEUED");
        assertThat(jdbc.queryForObject("select status from simulation where id = ?", String.class, six))
                .isEqualTo("QUEUED");

        // A batch that runs: its runs SUCCEEDED with their reports, the others untouched.
        runner.run(queue.claim("w#5", (s, j, f) -> 2).orElseThrow(), "w#5", () -> false);
        assertThat(statuses(jdbc, six)).containsExactly("SUCCEEDED", "SUCCEEDED", "QUEUED", "QUEUED", "QUEUED",
                "QUEUED");
        assertThat(jdbc.queryForList("select run_index from simulation_run_report where simulation_id = ? "
                + "order by run_index", Integer.class, six)).containsExactly(0, 1);

        // The runner's batch size: one while a variant has not run here, then what is left of the variant
        // (claim-batch is 1 h here), never past it.
        dev.schedsim.request.SimulationPlan request = ctx.getBean(SimulationPlans.class).of(six);
        assertThat(sizer.runs(six, request, 3)).isEqualTo(1);
        assertThat(sizer.runs(six, request, 0)).isEqualTo(3);
        assertThat(sizer.runs(six, request, 1)).isEqualTo(2);
        assertThat(sizer.runs(six, request, 2)).isEqualTo(1);
        assertThat(sizer.runs("unknown", request, 0)).isEqualTo(1);
        for (int run = 2; run <= 3; run++) {
            SimulationQueue.Batch b = queue.claim("w#6", (s, j, f) -> 1).orElseThrow();
            assertThat(b.runs()).extracting(SimulationQueue.Claim::runIndex).containsExactly(run);
            runner.run(b, "w#6", () -> false);
        }
        assertThat(sizer.runs(six, request, 3)).isEqualTo(3);
        assertThat(sizer.runs(six, request, 4)).isEqualTo(2);

        // The rest in batches as the workers claim them: the same result as one run at a time.
        claimAndRunAll(queue, runner, sizer);
        assertThat(jdbc.queryForObject("select status from simulation where id = ?", String.class, six))
                .isEqualTo("SUCCEEDED");
        assertThat(statuses(jdbc, six)).containsOnly("SUCCEEDED");
    }

    /** Waits for a latch (a bound only so that a broken claim cannot hang the build). */
    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void claimAndRunAll(SimulationQueue queue, BatchRunner runner, BatchSizer sizer) {
        for (Optional<SimulationQueue.Batch> b = queue.claim("w#7", sizer); b.isPresent();
                b = queue.claim("w#7", sizer)) {
            runner.run(b.get(), "w#7", () -> false);
        }
    }

    private static List<Integer> indexes(Optional<SimulationQueue.Batch> batch, String simulation) {
        assertThat(batch).isPresent();
        assertThat(batch.get().simulationId()).isEqualTo(simulation);
        return batch.get().runs().stream().map(SimulationQueue.Claim::runIndex).toList();
    }

    private static List<String> statuses(JdbcTemplate jdbc, String simulation) {
        return jdbc.queryForList("select status from simulation_run where simulation_id = ? order by run_index",
                String.class, simulation);
    }
}
