package dev.schedsim.scenarios;

import static dev.schedsim.scenarios.ReadmeScenarioTable.assertShows;
import static dev.schedsim.scenarios.ScenarioRuns.at;
import static dev.schedsim.scenarios.ScenarioRuns.cgroup;
import static dev.schedsim.scenarios.ScenarioRuns.pct;
import static dev.schedsim.scenarios.ScenarioRuns.row;
import static dev.schedsim.scenarios.ScenarioRuns.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Every scenario of the library run through the real service: each test asserts the published
 * direction and the band its catalog entry (scenarios/catalog.json) publishes on the result's {@code comparison} and numbers. All scenarios are
 * submitted up front so that the workers run them in parallel; the tests then wait for their own.
 * Sizes: the shipped (full-size) requests, except where noted. Each test also holds the README's scenario table
 * to what its run gives ({@link ReadmeScenarioTable}: every figure of the row's engine-result column, to the digits
 * shown), so the README cannot drift from the engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScenarioLibraryTests {
    private ScenarioRuns runs;
    private final Map<String, String> ids = new LinkedHashMap<>();

    @BeforeAll
    void submitAll() throws Exception {
        runs = new ScenarioRuns(Files.createTempDirectory("schedsim-scenarios"));
        for (String name : new String[] {"seed-000-interleave", "seed-003-newidle-cost", "seed-004-balance-serialize",
            "seed-002-sis-cache", "seed-000-interleave-1cgroup", "seed-001-throttle-idle-balance",
            "seed-001-return-runtime-fix", "seed-001-static-key", "k8s-burst", "k8s-slice-expiration",
            "k8s-low-usage-throttling"}) {
            ids.put(name, runs.runByName(name, ""));
        }
    }

    @AfterAll
    void stop() {
        runs.close();
    }

    private JsonNode result(String name) {
        return runs.result(ids.get(name));
    }

    private static void print(String name, String text) {
        System.out.println("scenario " + name + ": " + text);
    }

    @Test
    void theLibraryListsEveryScenarioWithItsPublishedFiguresAndARequestThatIsAccepted() {
        HttpResponse<String> r = runs.http.get("/api/v1/scenarios");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode list = Http.json(r);
        assertThat(list.size()).isEqualTo(13);
        for (JsonNode s : list) {
            for (String f : new String[] {"name", "kind", "title", "description", "machine", "expect"}) {
                assertThat(s.path(f).asString()).as(s.path("name") + "." + f).isNotBlank();
            }
            assertThat(s.path("published").path("figures").asString()).isNotBlank();
            assertThat(s.path("published").path("source").asString()).isNotBlank();
            if (s.path("kind").asString().equals("advice")) { // (run to their answers by AdviceScenarioTests)
                assertThat(s.path("request").path("objective").isObject()).as(s.path("name").asString()).isTrue();
            } else {
                assertThat(s.path("kind").asString()).isEqualTo("simulation");
                assertThat(s.path("request").path("variants").size()).isGreaterThanOrEqualTo(1);
            }
            assertThat(s.path("request").path("name").asString()).isEqualTo(s.path("name").asString());
        }
        assertThat(runs.http.get("/api/v1/scenarios/seed-001-static-key").statusCode()).isEqualTo(200);
        HttpResponse<String> missing = runs.http.post("/api/v1/scenarios/no-such-thing/run", "");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
        assertThat(runs.http.get("/api/v1/scenarios/no-such-thing").statusCode()).isEqualTo(404);
    }

    @Test
    void theReadmeTableHasARowForEveryScenarioRunHere() {
        assertThat(ReadmeScenarioTable.rows().keySet()).containsExactlyInAnyOrderElementsOf(ids.keySet());
    }

    @Test
    void overridesApplyAndAreValidatedLikeAnySubmission() {
        String id = runs.runByName("seed-001-static-key", """
                { "seed": 9, "repetitions": 2, "durationMs": 50 }""");
        JsonNode job = Http.json(runs.http.get("/api/v1/simulations/" + id));
        assertThat(job.path("request").path("seed").asLong()).isEqualTo(9);
        assertThat(job.path("request").path("repetitions").asInt()).isEqualTo(2);
        assertThat(job.path("request").path("durationMs").asLong()).isEqualTo(50);
        JsonNode result = runs.result(id);
        assertThat(result.path("variants").get(0).path("seeds").toString()).isEqualTo("[9,10]");

        HttpResponse<String> bad = runs.http.post("/api/v1/scenarios/seed-001-static-key/run",
                "{ \"repetitions\": 0 }");
        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(400);
        assertThat(bad.body()).contains("repetitions");
        HttpResponse<String> unknown = runs.http.post("/api/v1/scenarios/seed-001-static-key/run",
                "{ \"sed\": 1 }");
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(400);
    }

    /** Mean of the slowest workload's completion per variant, s. */
    private static double completion(JsonNode result, int v) {
        double max = 0;
        for (JsonNode w : result.path("variants").get(v).path("workloads")) {
            assertThat(w.path("completionUs").isNumber()).as("every workload finished: " + w).isTrue();
            max = Math.max(max, w.path("completionUs").asDouble());
        }
        return max / 1e6;
    }

    @Test
    void seed000InterleavedTimersFinishTwoGroupsSoonerAtHigherPower() {
        JsonNode r = result("seed-000-interleave");
        double change = pct(completion(r, 0), completion(r, 1));
        double p0 = at(r, 0, "/cpus/avgPowerWatts");
        double p1 = at(r, 1, "/cpus/avgPowerWatts");
        print("seed-000-interleave", String.format("completion %.2f s -> %.2f s (%+.1f %%), power %.1f W -> %.1f W",
                completion(r, 0), completion(r, 1), change, p0, p1));
        assertShows("seed-000-interleave", completion(r, 0), completion(r, 1), change, p0, p1);
        assertThat(change).isBetween(-35.0, -5.0);
        assertThat(p1).isGreaterThan(p0);
    }

    @Test
    void seed000OneCgroupIsUnchanged() {
        JsonNode r = result("seed-000-interleave-1cgroup");
        double change = pct(completion(r, 0), completion(r, 1));
        print("seed-000-interleave-1cgroup", String.format("completion %.2f s -> %.2f s (%+.1f %%)",
                completion(r, 0), completion(r, 1), change));
        assertShows("seed-000-interleave-1cgroup", completion(r, 0), completion(r, 1), change);
        assertThat(Math.abs(change)).isLessThanOrEqualTo(3.0);
    }

    @Test
    void seed001ThrottleIdleBalanceCutsIdleTime() {
        JsonNode r = result("seed-001-throttle-idle-balance");
        JsonNode idle = row(r, "cpus.idlePct");
        print("seed-001-throttle-idle-balance", String.format("idle %s %% -> %s %% (%s %% better)",
                idle.path("baselineMean"), idle.path("variantMean"), idle.path("pctImprovement")));
        assertShows("seed-001-throttle-idle-balance", idle.path("baselineMean").asDouble(),
                idle.path("variantMean").asDouble());
        assertThat(idle.path("pctImprovement").asDouble()).isGreaterThanOrEqualTo(30.0);
    }

    @Test
    void seed001WithoutTheReturnFixABurstyGroupIsThrottledMore() {
        JsonNode r = result("seed-001-return-runtime-fix");
        JsonNode thr = row(r, "cgroups./g.nrThrottled");
        print("seed-001-return-runtime-fix", String.format("nr_throttled %s (fix off) -> %s (fix on), periods %.0f",
                thr.path("baselineMean"), thr.path("variantMean"), cgroup(r, 0, "/g", "nrPeriods")));
        assertShows("seed-001-return-runtime-fix", thr.path("baselineMean").asDouble(),
                thr.path("variantMean").asDouble(), cgroup(r, 0, "/g", "nrPeriods"));
        assertThat(thr.path("baselineMean").asDouble()).isGreaterThan(thr.path("variantMean").asDouble());
        assertThat(thr.path("pctImprovement").asDouble()).isGreaterThanOrEqualTo(20.0);
    }

    @Test
    void seed001StaticKeyLowersSchedulerOverhead() {
        JsonNode r = result("seed-001-static-key");
        double o0 = at(r, 0, "/scheduler/overheadPct");
        double o1 = at(r, 1, "/scheduler/overheadPct");
        JsonNode tput = row(r, "workloads.pipe.throughputPerSec");
        print("seed-001-static-key", String.format("scheduler overhead %.3f %% -> %.3f %%, throughput %s -> %s (%s %%)",
                o0, o1, tput.path("baselineMean"), tput.path("variantMean"), tput.path("pctImprovement")));
        assertShows("seed-001-static-key", o0, o1, tput.path("pctImprovement").asDouble());
        assertThat(o1).isLessThan(o0);
        // (serialization is 0.25 % of the cycles before the patch: what it gives back is within the run-to-run
        // noise of the throughput since the machine has noise, issue 18; it must not cost any)
        assertThat(tput.path("pctImprovement").asDouble()).isGreaterThan(-1.0);
    }

    @Test
    void seed002SisCacheServesMoreAndMovesFewerTasks() {
        JsonNode r = result("seed-002-sis-cache");
        JsonNode tput = row(r, "workloads.rr.throughputPerSec");
        double m0 = workload(r, 0, "rr", "/migrations");
        double m1 = workload(r, 1, "rr", "/migrations");
        print("seed-002-sis-cache", String.format("throughput %s -> %s /s (%s %%), migrations %.0f -> %.0f",
                tput.path("baselineMean"), tput.path("variantMean"), tput.path("pctImprovement"), m0, m1));
        assertShows("seed-002-sis-cache", tput.path("pctImprovement").asDouble(), m0, m1);
        assertThat(tput.path("pctImprovement").asDouble()).isBetween(1.0, 70.0);
        assertThat(m1).isLessThan(m0);
    }

    /**
     * Seed 003 at full size (16 groups): 5.16 drops 5.15's avg_idle < migration-cost gate, so CPUs that run out
     * of work newidle-balance and pull queued tasks; hackbench completes sooner (published +20 %), and the result
     * carries the per-level max_newidle_lb_cost table.
     */
    @Test
    void seed003NewidleCostTrackingSpeedsUpHackbench() {
        JsonNode r = result("seed-003-newidle-cost");
        double n0 = at(r, 0, "/scheduler/newidleBalances");
        double n1 = at(r, 1, "/scheduler/newidleBalances");
        double c0 = completion(r, 0);
        double c1 = completion(r, 1);
        JsonNode costs = r.path("variants").get(1).path("scheduler").path("newidleCostUs");
        print("seed-003-newidle-cost", String.format("hackbench %.3f s -> %.3f s (%+.1f %%), idle %.1f %% -> %.1f %%, "
                        + "newidle balances %.0f -> %.0f, 5.16 cost table %s", c0, c1, (c0 - c1) / c0 * 100,
                at(r, 0, "/cpus/idlePct"), at(r, 1, "/cpus/idlePct"), n0, n1, costs));
        List<double[]> perLevel = new ArrayList<>(); // "SMT 9 / MC 28 / NUMA 56 µs (constant: min = avg = max)"
        for (JsonNode c : costs) {
            perLevel.add(new double[] {c.path("min").asDouble(), c.path("avg").asDouble(), c.path("max").asDouble()});
        }
        assertThat(perLevel).hasSize(3);
        assertShows("seed-003-newidle-cost", c0, c1, (c0 - c1) / c0 * 100, at(r, 0, "/cpus/idlePct"),
                at(r, 1, "/cpus/idlePct"), n0, n1, perLevel.get(0), perLevel.get(1), perLevel.get(2));
        // The published +20 % is missed: the model gains about +4 % (docs/model.md, "Seed 003's table"). Asserted is
        // the mechanism — 5.16's CPUs balance when newly idle and idle less — and that the miss stays a miss of size,
        // not of sign beyond the spread.
        assertThat((c0 - c1) / c0 * 100).isBetween(-5.0, 25.0);
        assertThat(at(r, 1, "/cpus/idlePct")).isLessThan(at(r, 0, "/cpus/idlePct"));
        // (7.7 times since a grouped task's util moves with it, 8.2 with SIS_PROP's bookkeeping, 9.9 with
        // MIGRATED_TASK_COLD, about 23 before it: 5.15's balances find migrated wakees to pull)
        assertThat(n1).isGreaterThan(5 * n0);
        assertThat(costs.size()).isGreaterThanOrEqualTo(2);
        for (JsonNode c : costs) {
            assertThat(c.path("level").asString()).isNotBlank();
            assertThat(c.path("max").asDouble()).isGreaterThanOrEqualTo(c.path("avg").asDouble());
            assertThat(c.path("avg").asDouble()).isGreaterThanOrEqualTo(c.path("min").asDouble());
        }
    }

    @Test
    void seed004CheckingDueFirstCutsSerializationCost() {
        JsonNode r = result("seed-004-balance-serialize");
        double a0 = at(r, 0, "/scheduler/serializeAttempts");
        double a1 = at(r, 1, "/scheduler/serializeAttempts");
        double s0 = at(r, 0, "/scheduler/serializePct");
        double s1 = at(r, 1, "/scheduler/serializePct");
        JsonNode tput = row(r, "workloads.oltp.throughputPerSec");
        print("seed-004-balance-serialize", String.format("serialization %.4f %% -> %.4f %% of cycles (%.0f -> %.0f "
                        + "CAS), throughput %s -> %s /s (%s %%)", s0, s1, a0, a1, tput.path("baselineMean"),
                tput.path("variantMean"), tput.path("pctImprovement")));
        assertShows("seed-004-balance-serialize", s0, s1, a0, a1, tput.path("pctImprovement").asDouble());
        assertThat(a1 * 10).isLessThan(a0);
        // the published row within a factor 2: 7.6 % -> 0.05 % of the cycles, throughput +11 %
        assertThat(s0).isBetween(3.8, 15.2);
        assertThat(s1).isLessThan(0.1);
        assertThat(tput.path("pctImprovement").asDouble()).isBetween(5.5, 22.0);
    }

    /**
     * The burst patch's schbench: without burst a 100 ms period that holds three rounds of requests runs out of
     * quota and workers throttled mid-request finish late, which schbench -R's latency counts; with burst the
     * quota saved in two-round periods covers it. p99 drops by more than 10x, throughput stays the same.
     */
    @Test
    void k8sBurstCutsTheRequestLatencyTail() {
        JsonNode r = result("k8s-burst");
        JsonNode p99 = row(r, "workloads.schbench.requestLatencyUs.p99");
        JsonNode wake = row(r, "workloads.schbench.wakeupLatencyUs.p99");
        JsonNode tput = row(r, "workloads.schbench.throughputPerSec");
        JsonNode thr = row(r, "cgroups./pod.nrThrottled");
        JsonNode time = row(r, "cgroups./pod.throttledUsec");
        print("k8s-burst", String.format("request latency p99 %s -> %s us, nr_throttled %s -> %s of %.0f periods, "
                        + "throttled %s -> %s us, throughput %s -> %s /s, wakeup latency p99 %s -> %s us",
                p99.path("baselineMean"), p99.path("variantMean"), thr.path("baselineMean"), thr.path("variantMean"),
                cgroup(r, 0, "/pod", "nrPeriods"), time.path("baselineMean"), time.path("variantMean"),
                tput.path("baselineMean"), tput.path("variantMean"), wake.path("baselineMean"), wake.path("variantMean")));
        assertShows("k8s-burst", p99.path("baselineMean").asDouble(), p99.path("variantMean").asDouble(),
                thr.path("baselineMean").asDouble(), thr.path("variantMean").asDouble(),
                cgroup(r, 0, "/pod", "nrPeriods"),
                new double[] {tput.path("baselineMean").asDouble(), tput.path("variantMean").asDouble()});
        assertThat(p99.path("variantMean").asDouble() * 10).isLessThan(p99.path("baselineMean").asDouble());
        assertThat(thr.path("baselineMean").asDouble()).isGreaterThanOrEqualTo(0.2 * cgroup(r, 0, "/pod", "nrPeriods"));
        assertThat(thr.path("variantMean").asDouble()).isLessThanOrEqualTo(0.1 * thr.path("baselineMean").asDouble());
        assertThat(time.path("pctImprovement").asDouble()).isGreaterThanOrEqualTo(90.0);
        assertThat(Math.abs(tput.path("pctImprovement").asDouble())).isLessThanOrEqualTo(1.0);
    }

    @Test
    void k8sSliceExpirationThrottlesFarMoreAtTheSameUsage() {
        JsonNode r = result("k8s-slice-expiration");
        JsonNode thr = row(r, "cgroups./g.nrThrottled");
        double u0 = cgroup(r, 0, "/g", "usageUsec");
        double u1 = cgroup(r, 1, "/g", "usageUsec");
        print("k8s-slice-expiration", String.format("nr_throttled %s (4.18, expiring) -> %s (5.4) of %.0f periods, "
                        + "usage %.0f -> %.0f us", thr.path("baselineMean"), thr.path("variantMean"),
                cgroup(r, 0, "/g", "nrPeriods"), u0, u1));
        assertShows("k8s-slice-expiration", thr.path("baselineMean").asDouble(), thr.path("variantMean").asDouble(),
                cgroup(r, 0, "/g", "nrPeriods"));
        assertThat(thr.path("baselineMean").asDouble()).isGreaterThan(2 * thr.path("variantMean").asDouble());
        assertThat(Math.abs(pct(u0, u1))).isLessThanOrEqualTo(15.0);
    }

    @Test
    void k8sLowUsageIsThrottledInALargeShareOfPeriods() {
        JsonNode r = result("k8s-low-usage-throttling");
        double periods = cgroup(r, 0, "/pod", "nrPeriods");
        double throttled = cgroup(r, 0, "/pod", "nrThrottled");
        double usage = cgroup(r, 0, "/pod", "usageUsec");
        double simulated = at(r, 0, "/simulatedUs");
        double quotaShare = usage / (simulated * 0.4);
        print("k8s-low-usage-throttling", String.format("throttled in %.0f of %.0f periods (%.0f %%), usage %.0f %% "
                + "of the quota", throttled, periods, throttled / periods * 100, quotaShare * 100));
        // "throttled in 29 of 30 periods at usage = the quota (the real kernel: 29 of 30)": the kernel's not here
        assertShows("k8s-low-usage-throttling", throttled, periods, null, null);
        assertThat(throttled / periods).isGreaterThanOrEqualTo(0.25);
        // "At or below the limit": a quota found gone at the next update_curr() is overrun until then and repaid
        // the next period, the last period's never; the kernel's own usage here is 1 204 ms of 1 200
        // (demand-eq-quota in src/test/resources/validation/cases-schedsim.json).
        assertThat(quotaShare).isLessThan(1.005);
    }
}
