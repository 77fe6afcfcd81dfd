package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.EngineRuns;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import java.util.ArrayList;
import java.util.List;

/**
 * What the cores give a table of runs: RUNS repetitions (seeds 1..RUNS) of a case one after another, then the
 * same through {@link EngineRuns} on THREADS threads, each timed on the wall clock (the point is the elapsed
 * time), ROUNDS times in turn after one warm-up round; checks that both give the same events per run.
 *
 * <p>usage: ParallelRunsBench [RUNS (8)] [THREADS (cores)] [ROUNDS (3)] [CASE | PRESET THREADS DURATION_US]
 */
public final class ParallelRunsBench {
    private ParallelRunsBench() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : EngineRuns.defaultThreads();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        EngineSpec spec = QuickBench.spec(java.util.Arrays.copyOfRange(args, Math.min(3, args.length), args.length));
        List<EngineRuns.Run> runs = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            runs.add(new EngineRuns.Run(spec, i));
        }
        for (int r = 0; r <= rounds; r++) {
            long t0 = System.nanoTime();
            long seqEvents = 0;
            for (EngineRuns.Run run : runs) {
                seqEvents += Engine.run(run.spec(), run.seed(), Long.MAX_VALUE, RunControl.NONE).events();
            }
            long t1 = System.nanoTime();
            long parEvents = 0;
            for (Report rep : EngineRuns.runAll(runs, threads, Long.MAX_VALUE)) {
                parEvents += rep.events();
            }
            long t2 = System.nanoTime();
            if (seqEvents != parEvents) {
                throw new IllegalStateException("events differ: " + seqEvents + " sequential, " + parEvents);
            }
            System.out.printf("%s %d runs: one after another %.2f s, on %d threads %.2f s: %.2fx%n",
                    r == 0 ? "warm-up" : "round " + r, n, (t1 - t0) / 1e9, threads, (t2 - t1) / 1e9,
                    (double) (t1 - t0) / (t2 - t1));
        }
    }
}
