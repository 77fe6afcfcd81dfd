package dev.schedsim.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import org.junit.jupiter.api.Test;

/**
 * Rows of the seeds' published tables that the model reproduces, held to their bands (docs/model.md: a factor 2 of
 * the published gain; ±4 % where the published change is within ±2 %), with the shapes and seeds of
 * {@code scripts/seed-table.sh}. The whole tables take minutes; these rows, the ones that carry an effect, about one.
 */
class SeedTableBandsTests {

    /**
     * Seed 003, hackbench -g G with {@code total} messages per pair in all: 5.16's completion gain over 5.15, 3 seeds,
     * the six runs side by side on the machine's cores (SeedRuns).
     */
    private static double hackbenchGainPct(int groups, int total) {
        return hackbenchGainPct(groups, total, 3);
    }

    /** The same over {@code seeds} seeds (1..seeds). */
    private static double hackbenchGainPct(int groups, int total, int seeds) {
        String[] profiles = {"5.15", "5.16"};
        Report[] runs = SeedRuns.all(2 * seeds, i -> Engine.run(Seed003Table.spec(profiles[i / seeds], groups,
                total / groups), i % seeds + 1, Long.MAX_VALUE, RunControl.NONE));
        double[] done = new double[2];
        for (int i = 0; i < 2 * seeds; i++) {
            done[i / seeds] += runs[i].workloads().get(0).completionUs();
        }
        return (done[0] - done[1]) / done[0] * 100;
    }

    /**
     * At the posting's length (96 000 messages per pair in all: 5.15 runs 3.2, 3.1 and 3.0 s at 16, 32 and 64 groups,
     * the posting's 3.7, 3.2 and 3.0 s), where 5.16's decay after a second without a new maximum has time to act.
     */
    @Test
    void seed003PeaksAt16Or32GroupsAndHolds32And64InBand() {
        double g16 = hackbenchGainPct(16, Seed003Table.POSTING_TOTAL);
        double g32 = hackbenchGainPct(32, Seed003Table.POSTING_TOTAL);
        double g64 = hackbenchGainPct(64, Seed003Table.POSTING_TOTAL);
        System.out.printf("seed 003: 16 groups %+.1f %%, 32 %+.1f %%, 64 %+.1f %% (published +20, +9, +4)%n", g16, g32,
                g64);
        assertThat(g32).as("32 groups, published +9 %").isBetween(4.5, 18.0);
        assertThat(g64).as("64 groups, published +4 %").isBetween(2.0, 8.0);
        assertThat(Math.max(g16, g32)).as("the peak at 16 or 32 groups").isGreaterThan(g64);
    }

    /**
     * The rows where the posting saw nothing (1, 4, 128 and 256 groups: +1, 0, -1 and +2 %) stay within the band of a
     * change within ±2 % (±4 %). One group's 40 threads never sleep (no newidle balance in either kernel); at 4 groups
     * half the CPUs stay idle in both, and 5.16's 20 times as many newidle balances move the run by about 1 % at this
     * length (−0.5 % at the posting's over 6 seeds, where it was −4.1 % before a grouped task's util moved with it;
     * 5.15 spreads ±4-5 % over seeds there); at 128 and 256 groups 1-3 % idle is left to take back (docs/model.md,
     * "Seed 003's table").
     */
    @Test
    void seed003RowsWithoutAnEffectStayWithinFourPercent() {
        int[] groups = {1, 4, 128, 256};
        double[] published = {1, 0, -1, 2};
        // 4 groups over 12 seeds: 5.15 spreads ±4-5 % over seeds there, so 3 seeds put the mean anywhere within
        // about ±3 % of it (seeds 1-3 gave −5.3 % where 12 give −1.1 %; docs/model.md, "Group PELT at a migration").
        int[] seeds = {3, 12, 3, 3};
        for (int i = 0; i < groups.length; i++) {
            double gain = hackbenchGainPct(groups[i], 9600, seeds[i]); // a tenth of the posting's length (0.0, −0.5,
            // −0.0 and +0.2 % at its full length over 6 seeds: docs/model.md, "Seed 003's table")
            System.out.printf("seed 003: %d groups %+.1f %% (published %+.0f %%)%n", groups[i], gain, published[i]);
            assertThat(gain).as(groups[i] + " groups, published " + published[i] + " %").isBetween(-4.0, 4.0);
        }
    }

    /**
     * Seed 004 in the steady state (the window from 0.5 to 1 s) of its OLTP mix at 60 % of the scenario's load, where
     * the machine idles a third of the time: 7.6 % of the cycles on sched_balance_running → 0.05 %, +11 %
     * (docs/model.md, "Seed 004's table": the queue needs CPUs whose ticks find them idle).
     */
    @Test
    void seed004RowsAreInBandInTheSteadyStateOfAMachineThatIdles() {
        Seed004Table.Window w = Seed004Table.window("gnr-2s-snc3-smt2", 60, 1000, 1_000_000, 3);
        System.out.printf("seed 004 at 60 %% load: %.2f %% -> %.4f %% of the cycles, %+.1f %% (published 7.6 -> 0.05,"
                + " +11 %%)%n", w.meanShare(0), w.meanShare(1), w.gainPct());
        assertThat(w.meanShare(0)).as("share before, published 7.6 %").isBetween(3.8, 15.2);
        assertThat(w.meanShare(1)).as("share after, published 0.05 %").isLessThanOrEqualTo(0.1);
        assertThat(w.gainPct()).as("throughput, published +11 %").isBetween(5.5, 22.0);
    }

    @Test
    void seed002OltpRowIsInBand() {
        double[] tput = new double[2];
        for (int v = 0; v < 2; v++) {
            for (long seed = 1; seed <= 2; seed++) {
                Report r = Engine.run(Seed002Table.oltpSpec(v == 1, 500_000), seed,
                        Long.MAX_VALUE, RunControl.NONE);
                tput[v] += r.workloads().get(0).throughputPerSec();
            }
        }
        double gain = (tput[1] - tput[0]) / tput[0] * 100;
        System.out.printf("seed 002 OLTP: %+.2f %% (published +0.7 %%)%n", gain);
        assertThat(gain).as("OLTP, published +0.7 % (within ±2 %: band ±4 %)").isBetween(-4.0, 4.0);
    }
}
