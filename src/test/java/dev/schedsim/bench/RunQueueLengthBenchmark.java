package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.TopologyPresets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How the cost of an event grows with the length of the run queues: the {@link BenchSpecs#mixed} mix on 2 CPUs
 * (validation-2c) for 30 s, from 12 threads (a few per cfs_rq, scanned) to 6 000 (about a thousand per cfs_rq,
 * in the deadline-sorted tree). Reports ms per run; the events per run are printed at setup.
 * {@code ./mvnw -Pbench -DskipTests test-compile exec:exec -Dbench.args="RunQueueLengthBenchmark -wi 2 -i 3 -f 1"}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class RunQueueLengthBenchmark {
    @Param({"12", "120", "1200", "6000"})
    public int threads;

    private EngineSpec spec;

    @Setup
    public void setup() {
        spec = BenchSpecs.mixed(TopologyPresets.byName("validation-2c").spec(), threads, 30_000_000);
        Report r = Engine.run(spec, 1, Long.MAX_VALUE, RunControl.NONE);
        System.out.printf("%n%d threads on 2 CPUs: %d events per run (divide the score by this for time per event)%n",
                threads, r.events());
    }

    @Benchmark
    public Report run() {
        return Engine.run(spec, 1, Long.MAX_VALUE, RunControl.NONE);
    }
}
