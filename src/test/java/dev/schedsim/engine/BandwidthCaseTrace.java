package dev.schedsim.engine;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.trace.FtraceWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * One real-kernel bandwidth case simulated with its trace on: prints each CPU's throttled intervals of the child
 * group (throttled_clock set to unthrottle), for comparing with the kernel's switches, and with {@code -Dtrace.out=FILE}
 * writes the run as ftrace text. Runs only when asked:
 * {@code ./mvnw test -Dtest=BandwidthCaseTrace -Dtrace.case=bandwidth-cases-2026-12-07-edge/edge-4x1000-thread-q77000}.
 */
class BandwidthCaseTrace {
    @Test
    @EnabledIfSystemProperty(named = "trace.case", matches = ".+")
    void printTheThrottledIntervals() throws Exception {
        String name = System.getProperty("trace.case");
        RealKernelValidationTests.Case c = RealKernelValidationTests.cases().filter(k -> k.toString().equals(name))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no bandwidth case " + name));
        EngineSpec traced = Specs.traced(RealKernelValidationTests.specOf(c));
        Report r = Specs.run(traced, Long.parseLong(System.getProperty("trace.seed", "1")));
        long[] since = {-1, -1};
        List<String> lines = new ArrayList<>();
        double[] total = new double[2];
        for (Report.TraceEvent e : r.trace().events()) {
            if ("throttle".equals(e.kind()) && "/parent/child".equals(e.cgroup())) {
                since[e.cpu()] = e.timeNs();
            } else if ("unthrottle".equals(e.kind()) && "/parent/child".equals(e.cgroup()) && since[e.cpu()] >= 0) {
                lines.add(String.format("cpu%d %10.3f ms +%7.3f ms", e.cpu(), since[e.cpu()] / 1e6,
                        (e.timeNs() - since[e.cpu()]) / 1e6));
                total[e.cpu()] += (e.timeNs() - since[e.cpu()]) / 1e6;
                since[e.cpu()] = -1;
            }
        }
        lines.stream().limit(Long.getLong("trace.lines", 60)).forEach(System.out::println);
        String out = System.getProperty("trace.out");
        if (out != null) {
            Files.writeString(Path.of(out), FtraceWriter.write(r.trace(), r.cpus().perCpuBusyPct().size(),
                    traced.cgroups().stream().map(CgroupSpec::path).toList()));
        }
        System.out.printf("throttled ms: cpu0 %.1f cpu1 %.1f in %d intervals%n", total[0], total[1], lines.size());
    }
}
