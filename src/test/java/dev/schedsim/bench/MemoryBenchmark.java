package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.TopologySpec;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The speed issue's memory target: 4096 CPUs (4 sockets of 2 NUMA nodes, 16 LLCs per node, 16 SMT2 cores per
 * LLC) and 100 000 threads of the {@link BenchSpecs#mixed} mix, 50 ms simulated,
 * in a JVM capped at 2 GB of heap (it fails with OutOfMemoryError if the engine needs more). Prints the peak
 * heap in use over the runs. {@code ./mvnw -Pbench -DskipTests test-compile exec:exec
 * -Dbench.args="MemoryBenchmark"}
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@State(Scope.Benchmark)
public class MemoryBenchmark {
    private EngineSpec spec;

    @Setup(Level.Trial)
    public void setup() {
        TopologySpec topo = TopologySpec.uniform(4, 2, 16, 16, 2);
        spec = BenchSpecs.mixed(topo, 100_000, 50_000);
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
        System.out.printf("%n%d CPUs, 100 000 threads, 50 ms simulated, heap capped at %d MB%n", topo.cpuCount(),
                Runtime.getRuntime().maxMemory() >> 20);
    }

    @Benchmark
    public Report run() {
        return Engine.run(spec, 1, Long.MAX_VALUE, RunControl.NONE);
    }

    @TearDown(Level.Trial)
    public void peak() {
        long peak = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                peak += p.getPeakUsage().getUsed();
            }
        }
        System.out.printf("%npeak heap in use (sum of the heap pools' peaks): %d MB%n", peak >> 20);
    }
}
