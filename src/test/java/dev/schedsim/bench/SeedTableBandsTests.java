package dev.schedsim.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunControl;
import dev.schedsim.engine.spec.TopologyPresets;
import org.junit.jupiter.api.Test;

/**
 * Rows of the seeds' published tables that the model reproduces, held to their bands (docs/model.md: a factor 2 of
 * the published gain; ±4 % where the published change is within ±2 %), with the shapes and seeds of
 * {@code scripts/seed-table.sh}. The whole tables take minutes; these rows, the ones that carry an effect, about one.
 */
class SeedTableBandsTests {

    /**
     * Seed 003, hackbench -g G with 9 600 messages per pair in all: 5.16's completion gain over 5.15, 3 seeds; 5.16's
     * cpu0 max_newidle_lb_cost samples go to {@code monitor}.
     */
    private static double hackbenchGainPct(int groups, Seed003Table.CostMonitor monitor) {
        double[] done = new double[2];
        String[] profiles = {"5.15", "5.16"};
        for (int p = 0; p < 2; p++) {
            for (long seed = 1; seed <= 3; seed++) {
                Report r = Engine.run(Seed003Table.spec(profiles[p], groups, 9600 / groups), seed, Long.MAX_VALUE,
                        RunControl.NONE);
                done[p] += r.workloads().get(0).completionUs();
                if (p == 1) {
                    monitor.add(r.scheduler().newidleCost());
                }
            }
        }
        return (done[0] - done[1]) / done[0] * 100;
    }

    @Test
    void seed003PeaksAt16Or32GroupsAndHolds32And64InBand() {
        Seed003Table.CostMonitor monitor = new Seed003Table.CostMonitor();
        double g16 = hackbenchGainPct(16, monitor);
        double g32 = hackbenchGainPct(32, monitor);
        double g64 = hackbenchGainPct(64, monitor);
        System.out.printf("seed 003: 16 groups %+.1f %%, 32 %+.1f %%, 64 %+.1f %% (published +20, +9, +4); "
                + "cpu0's max_newidle_lb_cost %s%n", g16, g32, g64, monitor);
        assertThat(g32).as("32 groups, published +9 %").isBetween(4.5, 18.0);
        assertThat(g64).as("64 groups, published +4 %").isBetween(2.0, 8.0);
        assertThat(Math.max(g16, g32)).as("the peak at 16 or 32 groups").isGreaterThan(g64);
        // The cost row's shape (docs/model.md, "Seed 003's table"): a balance costs what it reads, so cpu0's tracked
        // maximum differs between runs and moments and min < avg < max at every level; the NUMA level, which reads
        // the other node's lines, costs most. Its levels and width are not the posting's (not asserted).
        for (String level : new String[] {"SMT", "MC", "NUMA1"}) {
            double[] v = monitor.level(level);
            assertThat(v).as(level + " sampled").isNotNull();
            assertThat(v[0]).as(level + " min < avg").isLessThan(v[1]);
            assertThat(v[1]).as(level + " avg < max").isLessThan(v[2]);
        }
        assertThat(monitor.level("NUMA1")[1]).isGreaterThan(monitor.level("MC")[1]);
    }

    @Test
    void seed003BalanceCostRisesWithWhatChangedOnTheMachine() {
        // cpu0's NUMA balance at 4 groups (half the CPUs idle, their lines unwritten) costs less than at 64 (every
        // CPU busy, every line written since the last read).
        double[] numa = new double[2];
        int[] groups = {4, 64};
        for (int i = 0; i < 2; i++) {
            Seed003Table.CostMonitor m = new Seed003Table.CostMonitor();
            m.add(Engine.run(Seed003Table.spec("5.16", groups[i], 9600 / groups[i]), 1, Long.MAX_VALUE,
                    RunControl.NONE).scheduler().newidleCost());
            numa[i] = m.level("NUMA1")[1];
        }
        System.out.printf("seed 003: cpu0's NUMA max_newidle_lb_cost, mean: 4 groups %.1f µs, 64 groups %.1f µs%n",
                numa[0], numa[1]);
        assertThat(numa[0]).isLessThan(numa[1]);
    }

    @Test
    void seed002OltpRowIsInBand() {
        int cpus = TopologyPresets.byName("spr-2s-60c-smt2").spec().cpuCount();
        double[] tput = new double[2];
        for (int v = 0; v < 2; v++) {
            for (long seed = 1; seed <= 2; seed++) {
                Report r = Engine.run(Seed002Table.oltpSpec(cpus * 400 / 480, cpus * 200 / 480, v == 1, 500_000), seed,
                        Long.MAX_VALUE, RunControl.NONE);
                tput[v] += r.workloads().get(0).throughputPerSec();
            }
        }
        double gain = (tput[1] - tput[0]) / tput[0] * 100;
        System.out.printf("seed 002 OLTP: %+.2f %% (published +0.7 %%)%n", gain);
        assertThat(gain).as("OLTP, published +0.7 % (within ±2 %: band ±4 %)").isBetween(-4.0, 4.0);
    }
}
