package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.TopologySpec;
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
 * How the engine's cost grows: the {@link BenchSpecs#mixed} mix on 2-socket SMT2 machines with LLCs of 8 cores,
 * from 16 to 512 CPUs, and from 64 to 16 384 threads on 256 CPUs. Reports nanoseconds per event (average
 * time per run divided by the run's events, printed at setup): flat means cost linear in events.
 * {@code ./mvnw -Pbench -DskipTests test-compile exec:exec -Dbench.args="ScalingBenchmark -wi 2 -i 3 -f 1"}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class ScalingBenchmark {
    /** "CPUs:threads". */
    @Param({"16:64", "64:256", "256:1024", "512:2048", "256:64", "256:16384"})
    public String size;

    private EngineSpec spec;

    @Setup
    public void setup() {
        String[] p = size.split(":");
        int cpus = Integer.parseInt(p[0]);
        int threads = Integer.parseInt(p[1]);
        int coresPerSocket = cpus / 4;
        TopologySpec topo = TopologySpec.uniform(2, 1, Math.max(1, coresPerSocket / 8),
                Math.min(8, coresPerSocket), 2);
        spec = BenchSpecs.mixed(topo, threads, 200_000);
        Report r = Engine.run(spec, 1, Long.MAX_VALUE, RunControl.NONE);
        System.out.printf("%n%s: %d CPUs, %d events per run (divide the score by this for time per event)%n", size,
                topo.cpuCount(), r.events());
    }

    @Benchmark
    public Report run() {
        return Engine.run(spec, 1, Long.MAX_VALUE, RunControl.NONE);
    }
}
