package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import dev.schedsim.engine.api.RunCancelledException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The idle worker's JIT warm-up: its sample requests are valid and run through the job path, its CPU budget
 * bounds it, a stop ends it, and a job submitted while it runs is still run — here by the one worker, which is
 * the one warming up, with a budget that would outlast the test.
 */
class EngineWarmupTests {
    private static ConfigurableApplicationContext context;
    private static WarmupRehearsal runner;

    @BeforeAll
    static void start() {
        context = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:warmup;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.workers=1",
                "schedsim.poll-interval=20ms", "schedsim.warmup=600s"));
        runner = context.getBean(WarmupRehearsal.class);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /**
     * The warm-up budget (600 s of CPU) outlasts {@link Http#awaitFinished}'s polling: the job finishes only if the
     * warming worker turns to it (its run in hand cancelled by the submission, or between warm-up runs).
     */
    @Test
    void aJobSubmittedDuringTheWarmupIsRun() throws InterruptedException {
        awaitWarmupRuns(1);
        Http http = EndToEnd.http(context);
        String id = EndToEnd.submit(http, """
                { "name": "during-warmup", "topology": { "preset": "validation-2c" },
                  "cgroups": [ { "path": "/a", "cpuMax": "50000 100000" } ],
                  "workloads": [ { "name": "w", "cgroup": "/a", "type": "cpu-bound", "threads": 2 } ],
                  "durationMs": 300 }""");
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.path("events").asLong()).isPositive();
    }

    @Test
    void theIdleWorkerWarmsUp() throws InterruptedException {
        assertThat(awaitWarmupRuns(2)).isGreaterThanOrEqualTo(2);
    }

    /** The worker's warm-up runs once they reach n (polled at most 600 times). */
    private static int awaitWarmupRuns(int n) throws InterruptedException {
        SimulationWorkers workers = context.getBean(SimulationWorkers.class);
        for (int i = 0; i < 600 && workers.warmupRuns() < n; i++) {
            Thread.sleep(50);
        }
        return workers.warmupRuns();
    }

    /** Every sample request runs, through the job's statements too, and leaves no row behind (rolled back). */
    @Test
    void everySampleRequestIsAcceptedAndRunsWithoutLeavingARow() {
        SimulationJobs jobs = context.getBean(SimulationJobs.class);
        SimulationRuns runs = context.getBean(SimulationRuns.class);
        SimulationResults results = context.getBean(SimulationResults.class);
        SimulationRunReports reports = context.getBean(SimulationRunReports.class);
        long jobRows = jobs.count();
        long runRows = runs.count();
        long resultRows = results.count();
        long reportRows = reports.count();
        for (String request : EngineWarmup.REQUESTS) {
            assertThat(runner.rehearse(request.formatted(3), "test#0", () -> false)).as(request).isPositive();
        }
        assertThat(jobs.count()).isEqualTo(jobRows);
        assertThat(runs.count()).isEqualTo(runRows);
        assertThat(results.count()).isEqualTo(resultRows);
        assertThat(reports.count()).isEqualTo(reportRows);
    }

    @Test
    void theBudgetBoundsTheWarmup() {
        EngineWarmup none = new EngineWarmup(runner, "test#0", () -> false, 0);
        assertThat(none.step(() -> false)).isFalse();
        assertThat(none.runs()).isZero();

        EngineWarmup one = new EngineWarmup(runner, "test#0", () -> false, 1); // spent after its first run
        assertThat(one.step(() -> false)).isTrue();
        assertThat(one.step(() -> false)).isFalse();
        assertThat(one.step(() -> false)).isFalse();
        assertThat(one.runs()).isEqualTo(1);
    }

    @Test
    void aStopEndsTheWarmup() {
        EngineWarmup w = new EngineWarmup(runner, "test#0", () -> false, Long.MAX_VALUE);
        assertThat(w.step(() -> true)).isFalse();
        assertThat(w.runs()).isZero();
        // A stop in the middle of a run: the engine checks every 4096 events (the 64-CPU mix runs ~20 000).
        AtomicInteger asked = new AtomicInteger();
        assertThatThrownBy(() -> runner.rehearse(EngineWarmup.REQUESTS[2].formatted(1), "test#0",
                () -> asked.incrementAndGet() > 1)).isInstanceOf(RunCancelledException.class);
        assertThat(asked.get()).isGreaterThan(1);
    }

    /**
     * While the instance has work the warm-up does not start a run, and work that arrives during a run cancels
     * it at the engine's next check; once idle again it goes on.
     */
    @Test
    void theWarmupYieldsToJobs() {
        AtomicBoolean busy = new AtomicBoolean(true);
        EngineWarmup w = new EngineWarmup(runner, "test#0", busy::get, Long.MAX_VALUE);
        assertThat(w.step(() -> false)).isFalse();
        assertThat(w.runs()).isZero();
        assertThat(w.yielded()).isZero();

        // Work arrives during the 64-CPU mix (the third request), at the engine's first check.
        AtomicBoolean armed = new AtomicBoolean();
        AtomicInteger asked = new AtomicInteger();
        EngineWarmup mid = new EngineWarmup(runner, "test#0", () -> armed.get() && asked.incrementAndGet() > 1,
                Long.MAX_VALUE);
        assertThat(mid.step(() -> false)).isTrue();
        assertThat(mid.step(() -> false)).isTrue();
        armed.set(true);
        assertThat(mid.step(() -> false)).isFalse();
        assertThat(asked.get()).isGreaterThan(1);
        assertThat(mid.runs()).isEqualTo(2);
        assertThat(mid.yielded()).isEqualTo(1);

        busy.set(false);
        assertThat(w.step(() -> false)).isTrue();
        assertThat(w.runs()).isEqualTo(1);
    }
}
