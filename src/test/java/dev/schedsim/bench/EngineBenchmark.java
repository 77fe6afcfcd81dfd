package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Engine speed: one simulation per invocation. JMH reports runs per second; the auxiliary counters are
 * rates too: {@code events} = engine events per wall second, {@code simulatedSeconds} = simulated seconds
 * per wall second. Run with {@code ./mvnw -Pbench verify}
 * (README, "Benchmarks").
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class EngineBenchmark {
    private EngineSpec mixed64;
    private EngineSpec epyc64Groups;
    private EngineSpec validation;

    /** Counts per invocation, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counts {
        public long events;
        public double simulatedSeconds;

        @Setup(Level.Iteration)
        public void clear() {
            events = 0;
            simulatedSeconds = 0;
        }
    }

    @Setup
    public void setup() {
        mixed64 = BenchSpecs.mixed64(2_000_000);
        epyc64Groups = BenchSpecs.epyc64Groups(1_000_000);
        validation = BenchSpecs.validationFour150();
    }

    private static Report run(EngineSpec spec, Counts c) {
        Report r = Engine.run(spec, 42, Long.MAX_VALUE, RunControl.NONE);
        c.events += r.events();
        c.simulatedSeconds += r.simulatedUs() / 1e6;
        return r;
    }

    /** 256 CPUs, 64 limited cgroups, 1024 threads, 1 simulated second. */
    @Benchmark
    public Report epyc256Cpus64Groups(Counts c) {
        return run(epyc64Groups, c);
    }

    /** A real-kernel validation case: 2 CPUs, 3 simulated seconds. */
    @Benchmark
    public Report validationCase(Counts c) {
        return run(validation, c);
    }

    /** 64 CPUs, 256 threads, mixed, 2 simulated seconds. */
    @Benchmark
    public Report mixed64Cpus256Threads(Counts c) {
        return run(mixed64, c);
    }
}
