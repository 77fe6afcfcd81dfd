package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A plain command-line timing of the engine benchmarks, for quick looks and for {@code scripts/bench-compare.sh}
 * (JMH is the reference): prints events per second and simulated seconds per second of each run.
 *
 * <p>Timed on the thread's CPU time when the JVM measures it (else wall time): on a shared machine the wall
 * clock also counts the time the OS gave other processes, which moves a single run by ±20 %.
 */
public final class QuickBench {
    private QuickBench() {
    }

    /**
     * usage: QuickBench [RUNS [CASE | PRESET THREADS DURATION_US]] — CASE: {@code mix} (default: 64 CPUs, 256
     * threads, 2 s), {@code epyc64Groups} (the speed issue's 256-CPU case, 1 s), {@code hackbench224} (14 groups of
     * 40 threads on 224 CPUs, 200 loops) or {@code validation} (four150, 3 s); or the mix scaled to a topology preset.
     */
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        EngineSpec spec = spec(java.util.Arrays.copyOfRange(args, Math.min(1, args.length), args.length));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpuTime = mx.isCurrentThreadCpuTimeSupported();
        for (int i = 0; i < runs; i++) {
            long t0 = cpuTime ? mx.getCurrentThreadCpuTime() : System.nanoTime();
            Report r = Engine.run(spec, 42, Long.MAX_VALUE, RunControl.NONE);
            double s = ((cpuTime ? mx.getCurrentThreadCpuTime() : System.nanoTime()) - t0) / 1e9;
            System.out.printf("run %d: %d events in %.3f s = %.2f M events/s, %.2f simulated s per %s s%n", i,
                    r.events(), s, r.events() / s / 1e6, r.simulatedUs() / 1e6 / s, cpuTime ? "CPU" : "wall");
        }
    }

    /**
     * One run of a case, for {@link Interleave}: {@code machine} is {@code [CASE]} or {@code [PRESET THREADS
     * DURATION_US]} (the arguments after RUNS); returns the run's event count.
     */
    public static long runOnce(String[] machine) {
        return Engine.run(spec(machine), 42, Long.MAX_VALUE, RunControl.NONE).events();
    }

    /** The spec of {@code [CASE]} or {@code [PRESET THREADS DURATION_US]} (none: the mix). */
    static EngineSpec spec(String[] machine) {
        if (machine.length > 2) {
            return BenchSpecs.mixed(dev.schedsim.engine.spec.TopologyPresets.byName(machine[0]).spec(),
                    Integer.parseInt(machine[1]), Long.parseLong(machine[2]));
        }
        String name = machine.length > 0 ? machine[0] : "mix";
        switch (name) {
            case "mix":
                return BenchSpecs.mixed64(2_000_000);
            case "epyc64Groups":
                return BenchSpecs.epyc64Groups(1_000_000);
            case "hackbench224":
                return BenchSpecs.hackbench224(Integer.getInteger("hb.groups", 14), Integer.getInteger("hb.loops", 200),
                        1_000_000);
            case "validation":
                return BenchSpecs.validationFour150();
            default:
                throw new IllegalArgumentException("unknown case " + name + " (mix, epyc64Groups, hackbench224, validation)");
        }
    }
}
