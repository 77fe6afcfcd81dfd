package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.EngineSpec;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunControl;

/**
 * A plain command-line timing of the mixed benchmark, for quick looks while developing (JMH is the
 * reference): prints events per second and simulated seconds per wall second per run.
 */
public final class QuickBench {
    private QuickBench() {
    }

    /** usage: QuickBench [RUNS [PRESET THREADS DURATION_US]] — default the 64-CPU, 256-thread mix. */
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        EngineSpec spec = args.length > 3
                ? BenchSpecs.mixed(dev.schedsim.engine.topology.TopologyPresets.byName(args[1]).spec(),
                        Integer.parseInt(args[2]), Long.parseLong(args[3]))
                : BenchSpecs.mixed64(2_000_000);
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Report r = Engine.run(spec, 42, Long.MAX_VALUE, RunControl.NONE);
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("run %d: %d events in %.3f s = %.2f M events/s, %.2f simulated s per wall s%n", i,
                    r.events(), s, r.events() / s / 1e6, r.simulatedUs() / 1e6 / s);
        }
    }
}
