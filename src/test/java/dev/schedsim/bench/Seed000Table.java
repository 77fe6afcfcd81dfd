package dev.schedsim.bench;

import static dev.schedsim.bench.SeedTables.inBand;
import static dev.schedsim.bench.SeedTables.mean;
import static dev.schedsim.bench.SeedTables.pctStd;
import static dev.schedsim.bench.SeedTables.yes;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 000's table (Shrikanth Hegde, "sched: Interleave cfs bandwidth timers for improved single thread performance
 * at low utilization", 41abdba93747): {@code stress-ng --cpu=32 --cpu-ops=50000} in one or two cgroups, each limited
 * to 25 % of the 8-core SMT8 POWER10 (cpu.max 1600000 100000), 6.18 with its period timers aligned against
 * interleaved (BANDWIDTH_TIMER_INTERLEAVE), REPS seeds. The posting's table: time to complete (s) and power (W),
 * four runs each. A run's work is the seed-000 scenario's (8.4 s of CPU a thread: 1 cgroup completes in 29.3 s, the
 * posting's in 27.5 s), and its power is the mean over the time to complete (the energy the run used
 * divided by its length), as the posting measured it while stress-ng ran.
 *
 * <p>Printed in the posting's format, {@code baseline[pct imp](std%)}, with whether each row is in band (a factor 2
 * of the published change on the means of its four runs; ±4 % where that is within ±2 %).
 *
 * <p>usage: scripts/seed-table.sh 000 [REPS (4)]
 */
public final class Seed000Table {
    /**
     * The posting's means of its four runs, as how much sooner and how much more power: 1 cgroup 27.6 → 27.5 s
     * (+0.4 %), 80.4 → 80.8 W (+0.4 %); 2 cgroups 40.15 → 33.05 s (+17.7 %), 91.0 → 102.75 W (+12.9 %).
     */
    static final double[] PUBLISHED_TIME_IMP = {0.4, 17.7};
    static final double[] PUBLISHED_POWER_UP = {0.4, 12.9};

    private Seed000Table() {
    }

    public static void main(String[] a) {
        int reps = a.length > 0 ? Integer.parseInt(a[0]) : 4;
        double idle = idleWatts();
        System.out.printf("seed 000 on power10-8c-smt8, stress-ng --cpu=32 per cgroup at 25 %% each, %d seeds%n", reps);
        System.out.println("cgroups  row         published   aligned[pct imp](std%)     interleaved[pct imp](std%)"
                + "   in band");
        for (int groups = 1; groups <= 2; groups++) {
            long t0 = System.nanoTime();
            int g = groups;
            Report[] runs = SeedRuns.all(2 * reps, i -> Engine.run(spec(g, i / reps == 1), i % reps + 1,
                    Long.MAX_VALUE, RunControl.NONE));
            double[][] time = new double[2][reps];
            double[][] power = new double[2][reps];
            for (int v = 0; v < 2; v++) {
                for (int s = 0; s < reps; s++) {
                    Report r = runs[v * reps + s];
                    long last = r.workloads().stream().mapToLong(Report.WorkloadReport::completionUs).max()
                            .orElseThrow();
                    time[v][s] = last / 1e6;
                    // the run's energy over the time to complete (the machine idles after it)
                    power[v][s] = r.cpus().avgPowerWatts() * r.simulatedUs() / (double) last
                            - idle * (r.simulatedUs() - last) / (double) last;
                }
            }
            double timeImp = -pctUp(time);
            double powerUp = pctUp(power);
            int i = groups - 1;
            System.out.printf("%d        time (s)    %+5.1f %%     %6.2f [%+6.2f](%4.1f)       %6.2f [%+6.2f](%4.1f)"
                            + "         %s%n", groups, PUBLISHED_TIME_IMP[i], mean(time[0]), 0.0,
                    pctStd(time[0]), mean(time[1]), timeImp, pctStd(time[1]),
                    yes(inBand(timeImp, PUBLISHED_TIME_IMP[i])));
            System.out.printf("         power (W)   %+5.1f %%     %6.1f [%+6.2f](%4.1f)       %6.1f [%+6.2f](%4.1f)"
                            + "         %s   (%.1f s)%n", PUBLISHED_POWER_UP[i], mean(power[0]), 0.0,
                    pctStd(power[0]), mean(power[1]), powerUp, pctStd(power[1]),
                    yes(inBand(powerUp, PUBLISHED_POWER_UP[i])), (System.nanoTime() - t0) / 1e9);
        }
        System.out.println("(pct imp: for the time, how much sooner; for the power, how much more; in band: a factor 2"
                + " of the published change, ±4 % where it is within ±2 %)");
    }

    /** One or two limited cgroups of 32 CPU-bound threads, the seed-000 scenario's. */
    static EngineSpec spec(int groups, boolean interleave) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.BANDWIDTH_TIMER_INTERLEAVE, interleave);
        KernelConfig k = KernelConfig.of(KernelProfiles.byName("6.18"), 250, f, 5000);
        List<CgroupSpec> cg = new ArrayList<>();
        cg.add(CgroupSpec.unlimited("/", 100));
        List<WorkloadSpec> w = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            cg.add(new CgroupSpec("/g" + g, 1_600_000, 100_000, 0, 100));
            w.add(WorkloadSpec.cpuBound("stress" + g, "/g" + g, 32, 8_400_000));
        }
        return new EngineSpec(TopologyPresets.byName("power10-8c-smt8").spec(), k, cg, w, 90_000_000, false);
    }

    /** The machine's power with every CPU idle, which it draws after the work is done: a run with no workload. */
    private static double idleWatts() {
        Report idle = Engine.run(new EngineSpec(TopologyPresets.byName("power10-8c-smt8").spec(),
                KernelConfig.of(KernelProfiles.byName("6.18"), 250, new EnumMap<>(Feature.class), 5000),
                List.of(CgroupSpec.unlimited("/", 100)), List.of(), 1_000_000, false), 1, Long.MAX_VALUE,
                RunControl.NONE);
        return idle.cpus().avgPowerWatts();
    }

    /** How much higher the second variant's mean is than the first's, per cent. */
    private static double pctUp(double[][] x) {
        double m0 = mean(x[0]);
        return (mean(x[1]) - m0) / m0 * 100;
    }
}
