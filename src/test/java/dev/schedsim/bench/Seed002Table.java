package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 002's client/server rows: request-response pairs with as many clients as 25, 50, 75 and 100 % of the
 * CPUs of the 240-CPU Sapphire Rapids preset (its machine noise, nothing else running), SIS_CACHE off against on,
 * REPS seeds; a netperf TCP_RR-like shape (SERVICE_US / THINK_US of work a transaction, no footprint of its own)
 * and a tbench-like one (15 / 5 µs, 2 MiB of cache footprint a task), each message moving
 * {@link WorkloadSpec.RequestResponse#TCP_RR_LOOPBACK_LINES} lines when client and server run apart. Prints
 * throughput (mean, std), the gain, and the migrations a wakeup makes.
 *
 * <p>Runs last a second by default: the LLC's SIS_UTIL scan depth (sd_llc_shared->nr_idle_scan) starts at an idle
 * machine's value and is first lowered by an LLC-level periodic balance, whose interval on these 120-CPU LLCs is
 * 120 ms at the least (the domain's weight in ms); a 200 ms run spends most of its wakeups with the idle depth.
 *
 * <p>The last row is the posting's OLTP row: seed 004's OLTP-like mix, per CPU, on this machine.
 *
 * <p>usage: scripts/seed-table.sh 002 [DURATION_MS (1000)] [REPS (3)] [LOADS_PCT... (25 50 75 100)]
 * (-Dpreset=NAME, -Dlines=N, -DnoSmt=true, -Doltp=false to leave the OLTP row out, via JAVA_OPTS)
 */
public final class Seed002Table {
    /**
     * The lines a message moves between client and server apart: TCP_RR over loopback's count, for both shapes
     * (tbench's larger messages move more); -Dlines=0 leaves them out (before issue 34's second pass).
     */
    static final int LINES = Integer.getInteger("lines", WorkloadSpec.RequestResponse.TCP_RR_LOOPBACK_LINES);

    /** The machine: the posting's by default; -Dpreset=NAME for a neighbouring shape. */
    static final String PRESET = System.getProperty("preset", "spr-2s-60c-smt2");

    private Seed002Table() {
    }

    /**
     * The preset's machine, or with -DnoSmt=true the same CPUs as cores without SMT (sockets and LLCs kept): what
     * the SMT siblings do to a row (the 25 % rows' SIS_CACHE loss is theirs: docs/model.md).
     */
    static TopologySpec machine() {
        TopologySpec t = TopologyPresets.byName(PRESET).spec();
        if (!Boolean.getBoolean("noSmt")) {
            return t;
        }
        return TopologySpec.uniform(t.sockets(), t.numaNodesPerSocket(), t.llcsPerNumaNode(),
                t.coresPerLlc() * t.threadsPerCore(), 1);
    }

    public static void main(String[] a) {
        long durationUs = (a.length > 0 ? Long.parseLong(a[0]) : 1000) * 1000;
        int reps = a.length > 1 ? Integer.parseInt(a[1]) : 3;
        int[] loads = a.length > 2 ? java.util.Arrays.stream(a, 2, a.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {25, 50, 75, 100};
        int cpus = machine().cpuCount();
        String[][] shapes = {{"netperf", "8", "8", "0"}, {"tbench", "15", "5", "2048"}};
        System.out.println("shape    clients  baseline/s(+/- std)  SIS_CACHE/s(+/- std)  gain    migrations per"
                + " 1000 wakeups, idle");
        for (String[] shape : shapes) {
            for (int pct : loads) {
                int pairs = cpus * pct / 100;
                row(String.format("%-8s %4d (%3d %%)", shape[0], pairs, pct),
                        sis -> spec(shape, pairs, sis, durationUs), reps);
            }
        }
        // The posting's OLTP row (+0.7 %): seed 004's OLTP-like mix per CPU (5 pairs of 60/30 µs and 2.5 periodic
        // threads of 300/200 µs for every 6 CPUs), on this machine, at HZ 1000 as seed 004's scenario assumes.
        if (!Boolean.parseBoolean(System.getProperty("oltp", "true"))) {
            return;
        }
        row(String.format("%-8s %4d        ", "oltp", cpus * 400 / 480), sis -> oltpSpec(sis, durationUs), reps);
    }

    /** One row: SIS_CACHE off and on over REPS seeds; throughput is the first workload's. */
    private static void row(String label, java.util.function.Function<Boolean, EngineSpec> spec, int reps) {
        long t0 = System.nanoTime();
        double[][] tput = new double[2][reps];
        double[][] mig = new double[2][reps];
        double[][] idle = new double[2][reps];
        Report[] runs = SeedRuns.all(2 * reps, i -> Engine.run(spec.apply(i / reps == 1), i % reps + 1,
                Long.MAX_VALUE, RunControl.NONE));
        for (int v = 0; v < 2; v++) {
            for (int s = 0; s < reps; s++) {
                Report r = runs[v * reps + s];
                tput[v][s] = r.workloads().get(0).throughputPerSec();
                idle[v][s] = r.cpus().idlePct();
                mig[v][s] = 1000.0 * r.scheduler().migrations() / Math.max(1, r.scheduler().wakeups());
            }
        }
        double m0 = SeedTables.mean(tput[0]);
        double m1 = SeedTables.mean(tput[1]);
        System.out.printf("%s  %9.0f(+/- %.1f%%)  %9.0f(+/- %.1f%%)  %+5.1f%%  %.2f -> %.2f  idle %.1f -> %.1f %%"
                        + "  (%.1f s)%n", label, m0, SeedTables.std(tput[0]) / m0 * 100, m1,
                SeedTables.std(tput[1]) / m1 * 100, (m1 - m0) / m0 * 100, SeedTables.mean(mig[0]),
                SeedTables.mean(mig[1]), SeedTables.mean(idle[0]), SeedTables.mean(idle[1]),
                (System.nanoTime() - t0) / 1e9);
    }

    /** The posting's OLTP row: seed 004's OLTP-like mix at its full load on this machine, HZ 1000. */
    static EngineSpec oltpSpec(boolean sisCache, long durationUs) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.SIS_CACHE, sisCache);
        KernelConfig k = KernelConfig.of(KernelProfiles.byName("6.18"), 1000, f, 5000);
        return new EngineSpec(machine(), k, List.of(CgroupSpec.unlimited("/", 100)),
                SeedTables.oltpMix(machine().cpuCount(), 100), durationUs, false);
    }

    private static EngineSpec spec(String[] shape, int pairs, boolean sisCache, long durationUs) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.SIS_CACHE, sisCache);
        KernelConfig k = KernelConfig.of(KernelProfiles.byName("6.18"), 250, f, 5000);
        WorkloadSpec rr = new WorkloadSpec("rr", "/", 0, null, Integer.parseInt(shape[3]),
                new WorkloadSpec.RequestResponse(pairs, Long.parseLong(shape[1]), Long.parseLong(shape[2]), null,
                        LINES));
        return new EngineSpec(machine(), k,
                List.of(CgroupSpec.unlimited("/", 100)), List.of(rr), durationUs, false);
    }
}
