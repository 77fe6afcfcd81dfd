package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.engine.spec.WorkloadType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The seeds' experiments at the engine level (docs/model.md, "The seed experiments, reproduced by
 * mechanism"): the same spec and seeds with the seed's feature
 * off and on; each test asserts the published direction and the band of
 * src/main/resources/scenarios/catalog.json. Nothing here scales
 * a result: the feature switches the kernel behaviour the patch changes and the effect comes out of the
 * modelled machine.
 */
class SeedExperimentsTests {

    private static Map<Feature, Boolean> with(Feature f, boolean on) {
        Map<Feature, Boolean> m = new EnumMap<>(Feature.class);
        m.put(f, on);
        return m;
    }

    /**
     * Seed 000: two groups at 25 % of a POWER10 SMT8 machine, 32 threads each with fixed work. With aligned
     * period timers both groups run in the same part of every period and share cores 8 threads deep; with
     * interleaved timers their windows overlap less, each thread gets a less crowded core (SMT throughput
     * curve), so the same work completes sooner — and the cores are busy longer, so power rises.
     */
    @Test
    void seed000InterleavedTimersFinishTwoGroupsSoonerAtHigherPower() {
        double[][] twoGroups = run000(2);
        double[][] oneGroup = run000(1);
        double change2 = (twoGroups[1][0] - twoGroups[0][0]) / twoGroups[0][0] * 100;
        double change1 = (oneGroup[1][0] - oneGroup[0][0]) / oneGroup[0][0] * 100;
        System.out.printf("seed 000: 2 groups %.2f s -> %.2f s (%.1f %%), power %.1f W -> %.1f W; "
                + "1 group %.2f s -> %.2f s (%.1f %%)%n", twoGroups[0][0], twoGroups[1][0], change2, twoGroups[0][1],
                twoGroups[1][1], oneGroup[0][0], oneGroup[1][0], change1);
        assertTrue(change2 <= -5 && change2 >= -35, "2-group completion change " + change2 + " % outside -35..-5");
        assertTrue(Math.abs(change1) <= 3, "1-group completion change " + change1 + " % outside ±3");
        assertTrue(twoGroups[1][1] > twoGroups[0][1], "power higher with interleave");
    }

    /** Mean completion (s) and power (W) over seeds 1–2, interleave off [0] and on [1]. */
    private static double[][] run000(int groups) {
        double[][] out = new double[2][2];
        for (int i = 0; i < 2; i++) {
            List<CgroupSpec> cg = new ArrayList<>();
            List<WorkloadSpec> w = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                cg.add(new CgroupSpec("/g" + g, 1_600_000, 100_000, 0, 100));
                w.add(WorkloadSpec.cpuBound("stress" + g, "/g" + g, 32, 8_400_000));
            }
            for (long seed = 1; seed <= 2; seed++) {
                Report r = Specs.run(Specs.spec(Specs.preset("power10-8c-smt8"),
                        Specs.kernel("6.18", 250, with(Feature.BANDWIDTH_TIMER_INTERLEAVE, i == 1)), cg, w, 90_000_000),
                        seed);
                long last = r.workloads().stream().mapToLong(Report.WorkloadReport::completionUs).max().orElseThrow();
                assertTrue(last > 0, "every group finished");
                out[i][0] += last / 1e6 / 2;
                out[i][1] += r.cpus().avgPowerWatts() / 2;
            }
        }
        return out;
    }

    /**
     * Seed 001 patch 3: nested groups throttle often on a 16-CPU machine. In the cfs_rq throttle model (6.1)
     * throttling happens in put_prev_task(); before the patch the throttled tasks still counted in
     * nr_running at that point, so schedule() did not newidle-balance and the CPU stayed idle until a periodic
     * balance. With THROTTLE_IDLE_BALANCE the CPU pulls runnable work from other CPUs at once.
     */
    @Test
    void seed001ThrottleIdleBalanceCutsIdleTime() {
        double[] idle = new double[2];
        for (int i = 0; i < 2; i++) {
            List<CgroupSpec> cg = new ArrayList<>();
            cg.add(CgroupSpec.unlimited("/l1", 100));
            cg.add(CgroupSpec.unlimited("/l1/l2", 100));
            cg.add(CgroupSpec.unlimited("/l1/l2/l3", 100));
            List<WorkloadSpec> w = new ArrayList<>();
            int[] threads = {2, 2, 4, 8, 16};
            for (int g = 0; g < threads.length; g++) {
                String path = "/l1/l2/l3/g" + g;
                cg.add(new CgroupSpec(path, threads[g] * 50_000L, 100_000, 0, 100));
                w.add(WorkloadSpec.cpuBound("w" + g, path, threads[g], 0));
            }
            Report r = Specs.run(Specs.spec(Specs.preset("xeon-2s-4c-smt2"),
                    Specs.kernel("6.1", 250, with(Feature.THROTTLE_IDLE_BALANCE, i == 1)), cg, w, 5_000_000), 1);
            idle[i] = r.cpus().idlePct();
        }
        System.out.printf("seed 001: idle %.2f %% -> %.2f %%%n", idle[0], idle[1]);
        assertTrue(idle[1] <= idle[0] * 0.7, "at least 30 % fewer idle cycles: " + idle[0] + " -> " + idle[1]);
    }

    /**
     * Seed 002: request-response pairs with a tbench-like footprint on a 240-CPU Sapphire Rapids, with some
     * background wakers. Without SIS_CACHE a wakee whose previous CPU is busy takes the first idle CPU, often
     * one a short sleeper just left, which then has to move in turn (a chain of migrations, each paying a
     * cache refill). SIS_CACHE skips idle CPUs that are cache-hot for a short sleeper, so fewer tasks move.
     */
    @Test
    void seed002SisCacheMovesFewerTasksAndServesMoreAtLowAndMediumLoad() {
        for (int pairs : new int[] {30, 60}) {
            double[] tput = new double[2];
            long[] mig = new long[2];
            for (int i = 0; i < 2; i++) {
                WorkloadSpec rr = new WorkloadSpec("rr", "/", 0, null, 2048,
                        new WorkloadSpec.RequestResponse(pairs, 15, 5));
                WorkloadSpec noise = WorkloadSpec.periodic("noise", "/", 40, 30, 600, 80);
                Report r = Specs.run(Specs.spec(Specs.preset("spr-2s-60c-smt2"),
                        Specs.kernel("6.18", 250, with(Feature.SIS_CACHE, i == 1)), List.of(), List.of(rr, noise), 200_000), 1);
                Report.WorkloadReport w = Specs.workload(r, "rr");
                tput[i] = w.throughputPerSec();
                mig[i] = w.migrations();
            }
            System.out.printf("seed 002: %d pairs: throughput %.0f -> %.0f /s (%+.1f %%), migrations %d -> %d%n", pairs,
                    tput[0], tput[1], (tput[1] - tput[0]) / tput[0] * 100, mig[0], mig[1]);
            assertTrue(tput[1] > tput[0], pairs + " pairs: throughput higher with SIS_CACHE");
            assertTrue(mig[1] < mig[0], pairs + " pairs: fewer migrations with SIS_CACHE");
        }
    }

    /**
     * Seed 002 at full load, as the posting's v1 analysis looked at it: as many netperf-like pairs as CPUs (8 µs each
     * way, no footprint, a message's TCP_RR loopback lines paid when client and server run apart: the seed table's
     * shape), 1 s on the 240-CPU Sapphire Rapids. A wakee whose previous CPU another wakee took moves to an idle one
     * without SIS_CACHE; with it the cache-hot idle CPUs are passed over (v2: for half the SIS_UTIL depth) and the
     * sleepers' own CPUs stay theirs, so far fewer tasks move. Without the lines' cost (8/8 µs alone) the model has
     * no cascade to stop since MIGRATED_TASK_COLD (84 → 142 per 1 000 wakeups: a balance takes a stacked wakee back).
     */
    @Test
    void seed002SisCacheAtFullLoadStacksRatherThanTakingAnotherSleepersCpu() {
        double[] perWakeup = new double[2];
        for (int i = 0; i < 2; i++) {
            WorkloadSpec rr = new WorkloadSpec("rr", "/", 0, null, 0, new WorkloadSpec.RequestResponse(240, 8, 8, null,
                    WorkloadSpec.RequestResponse.TCP_RR_LOOPBACK_LINES));
            Report r = Specs.run(Specs.spec(Specs.preset("spr-2s-60c-smt2"),
                    Specs.kernel("6.18", 250, with(Feature.SIS_CACHE, i == 1)), List.of(), List.of(rr), 1_000_000), 1);
            perWakeup[i] = 1000.0 * r.scheduler().migrations() / r.scheduler().wakeups();
        }
        System.out.printf("seed 002 at 100 %%: migrations per 1 000 wakeups %.0f -> %.0f%n", perWakeup[0],
                perWakeup[1]);
        assertTrue(perWakeup[0] > 200, "without SIS_CACHE a cascade of migrations: " + perWakeup[0]);
        assertTrue(perWakeup[1] < perWakeup[0] * 0.75, "SIS_CACHE moves at least a quarter fewer: " + perWakeup[0]
                + " -> " + perWakeup[1]);
    }

    /**
     * Seed 003: hackbench on a 224-CPU ThunderX2 (2 nodes, 28 cores, SMT4), the total number of messages fixed
     * while the group count varies, as the posting ran it. 5.15 skips newidle balancing whenever the CPU's
     * avg_idle is below sysctl_sched_migration_cost (500 µs); hackbench's idle gaps are a few µs, so once
     * avg_idle has fallen from its initial 1 ms a CPU that runs out of work stays idle while tasks queue on
     * other CPUs until a wakeup or a periodic balance fills it. 5.16 drops that gate (and counts
     * update_blocked_averages in the first level's cost, and decays max_newidle_lb_cost only after a second),
     * so the CPU pulls a queued task whenever avg_idle exceeds the level's cost. At mid-range group counts the
     * machine has both idle CPUs and queued tasks, so completion improves; with 1 group no CPU is overloaded
     * (nothing to pull), with 128 groups every CPU has work: both roughly unchanged.
     */
    @Test
    void seed003NewidleCostTrackingSpeedsUpMidRangeHackbench() {
        // groups -> loops, the same number of messages per sender/receiver pair times groups (9 600) but for 1
        // group (4 800, to keep the test short; 1 group is the slowest).
        double[] g16 = run003(16, 600, null);
        double[] g1 = run003(1, 300, null);
        double[] g128 = run003(128, 75, null);
        double[] gate = run003(16, 600, Boolean.TRUE);
        double c16 = (g16[0] - g16[1]) / g16[0] * 100;
        double c1 = (g1[0] - g1[1]) / g1[0] * 100;
        double c128 = (g128[0] - g128[1]) / g128[0] * 100;
        System.out.printf("seed 003: 16 groups %.1f ms -> %.1f ms (%+.1f %%), idle %.1f %% -> %.1f %%, newidle "
                        + "balances %.0f -> %.0f; 1 group %+.1f %%; 128 groups %+.1f %%; 5.16 with the 5.15 gate %.1f ms%n",
                g16[0] / 1e3, g16[1] / 1e3, c16, g16[2], g16[3], g16[4], g16[5], c1, c128, gate[1] / 1e3);
        // (+0.7 % since hackbench's senders sleep on a 278-message socket buffer and are woken together at a
        // quarter of it, unix_writable(); +4.5 % with the 16-message buffer before: docs/model.md, "Seed 003's table")
        assertTrue(c16 > 0, "16 groups improve, got " + c16);
        assertTrue(Math.abs(c1) <= 2, "1 group within ±2 %, got " + c1);
        // (+0.9 % before issue 18, +3.5 % after: still far below the mid-range effect's scale in the posting)
        assertTrue(Math.abs(c128) <= 5, "128 groups within ±5 %, got " + c128);
        // (18 times since SIS_PROP's bookkeeping as the kernel does it; 4.2 times with MIGRATED_TASK_COLD before that,
        // when 5.15's few balances past its gate began to find migrated wakees cold; 11 times before both)
        assertTrue(g16[5] > 10 * g16[4], "5.16 newidle-balances far more often");
        assertTrue(g16[3] < g16[2] * 0.85, "5.16 cuts the idle time at 16 groups");
        // The gate is the mechanism: 5.16 with only NEWIDLE_MIGRATION_COST_GATE switched back loses the gain.
        assertTrue(Math.abs(gate[1] - g16[0]) / g16[0] * 100 <= 1, "5.16 + the 5.15 gate is back to 5.15");
    }

    /**
     * Completion (µs) with 5.15 [0] and 5.16 [1], idle % [2, 3] and newidle balances [4, 5]; {@code gate}
     * overrides NEWIDLE_MIGRATION_COST_GATE in both profiles when not null.
     */
    private static double[] run003(int groups, int loops, Boolean gate) {
        double[] out = new double[6];
        String[] profiles = {"5.15", "5.16"};
        for (int i = 0; i < 2; i++) {
            Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
            if (gate != null) {
                f.put(Feature.NEWIDLE_MIGRATION_COST_GATE, gate);
            }
            WorkloadSpec hb = WorkloadSpec.hackbench("hackbench", "/", groups, 20, loops, 4);
            Report r = Specs.run(Specs.spec(Specs.preset("thunderx2-2n-28c-smt4"), Specs.kernel(profiles[i], 250, f),
                    List.of(), List.of(hb), 10_000_000), 1);
            Report.WorkloadReport w = Specs.workload(r, "hackbench");
            assertTrue(w.completionUs() > 0, "hackbench finished");
            out[i] = w.completionUs();
            out[2 + i] = r.cpus().idlePct();
            out[4 + i] = r.scheduler().newidleBalances();
        }
        return out;
    }

    /**
     * Seed 004: an OLTP-like mix keeps a 480-CPU, 2-socket machine busy. Up to 6.18 every visit of an
     * SD_SERIALIZE (NUMA) level takes the machine-wide sched_balance_running flag with a compare-and-swap
     * before checking whether the level is due; the CPUs whose ticks arrive together queue for its cache line. With
     * BALANCE_DUE_BEFORE_SERIALIZE only CPUs whose NUMA level is due contend, which is rare.
     */
    @Test
    void seed004CheckingDueFirstCutsSerializationCost() {
        double[] pct = new double[2];
        long[] attempts = new long[2];
        double[] tput = new double[2];
        // HZ 1000 as the distribution kernels such OLTP runs use (the posting does not say). The throughput is the
        // mean over three seeds (the counts are seed 1's).
        for (int i = 0; i < 2; i++) {
            List<WorkloadSpec> w = List.of(WorkloadSpec.requestResponse("oltp", "/", 400, 60, 30),
                    WorkloadSpec.periodic("bg", "/", 200, 300, 200, 30));
            for (long seed = 1; seed <= 3; seed++) {
                Report r = Specs.run(Specs.spec(Specs.preset("gnr-2s-snc3-smt2"),
                        Specs.kernel("6.18", 1000, with(Feature.BALANCE_DUE_BEFORE_SERIALIZE, i == 1)), List.of(), w,
                        300_000), seed);
                if (seed == 1) {
                    pct[i] = r.scheduler().serializePct();
                    attempts[i] = r.scheduler().serializeAttempts();
                }
                tput[i] += Specs.workload(r, "oltp").throughputPerSec() / 3;
            }
        }
        System.out.printf("seed 004: serialization %.4f %% -> %.4f %% of cycles (%d -> %d CAS), throughput %.0f -> %.0f /s%n",
                pct[0], pct[1], attempts[0], attempts[1], tput[0], tput[1]);
        assertTrue(attempts[1] * 10 < attempts[0], "more than 10x fewer compare-and-swaps");
        assertTrue(pct[1] * 10 < pct[0], "more than 10x less of the cycles");
        // the CPUs arriving together at the flag's cache line queue for it: percents of the cycles, not tenths (in
        // these 300 ms, while the threads start on an idle machine; the published table's band in the steady state
        // is SeedTableBandsTests')
        assertTrue(pct[0] > 1.0, "percents of the cycles: " + pct[0]);
        assertTrue(tput[1] > tput[0] * 1.03, "the cycles given back are throughput");
    }
}
