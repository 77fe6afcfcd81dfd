package dev.schedsim.engine;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.trace.FtraceWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The model's side of scripts/trace-case.py: one latency case simulated with its trace on (after the warm-up run the
 * suite gives it; the trace is the reported run's), written as ftrace text
 * for {@code scripts/trace-case.py --analyse FILE g0} (the model's threads are named after their group, g0, g1 …).
 * Runs only when asked:
 * {@code ./mvnw test -Dtest=LatencyCaseTrace -Dtrace.case=latency-cases-2026-12-02b/four-2000 [-Dtrace.seed=1]
 * [-Dtrace.out=/tmp/model-trace.txt]}.
 */
class LatencyCaseTrace {
    @Test
    @EnabledIfSystemProperty(named = "trace.case", matches = ".+")
    void writeTheModelsTrace() throws Exception {
        String name = System.getProperty("trace.case");
        LatencyValidationTests.Case c = LatencyValidationTests.cases().filter(k -> k.toString().equals(name))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no latency case " + name));
        EngineSpec traced = Specs.traced(LatencyValidationTests.spec(c));
        Report r = Specs.run(traced, Long.parseLong(System.getProperty("trace.seed", "1")));
        List<String> cgroups = traced.cgroups().stream().map(CgroupSpec::path).toList();
        Path out = Path.of(System.getProperty("trace.out", "/tmp/model-trace.txt"));
        Files.writeString(out, FtraceWriter.write(r.trace(), r.cpus().perCpuBusyPct().size(), cgroups));
        System.out.println("wrote " + out + (r.trace().truncated() ? " (truncated)" : ""));
        Report.SchedulerReport sc = r.scheduler();
        System.out.println("migrations " + sc.migrations() + ": at wakeup " + sc.wakeupMigrations() + ", newidle pulls "
                + sc.newidlePulls() + ", other balancing " + (sc.migrations() - sc.wakeupMigrations() - sc.newidlePulls())
                + "; workloads " + r.workloads().stream().map(w -> w.name() + " " + w.migrations()).toList());
    }
}
