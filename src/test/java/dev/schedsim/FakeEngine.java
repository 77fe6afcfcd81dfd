package dev.schedsim;

import dev.schedsim.engine.EngineSpec;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunCancelledException;
import dev.schedsim.engine.RunControl;
import dev.schedsim.engine.bandwidth.CgroupSpec;
import dev.schedsim.engine.workload.WorkloadSpec;
import dev.schedsim.simulation.SimulationEngine;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * A stand-in engine for the service's own tests: a deterministic report derived from the spec and seed. A
 * workload named {@code block} makes the run wait until it is cancelled.
 */
@TestConfiguration(proxyBeanMethods = false)
public class FakeEngine {

    @Bean
    @Primary
    SimulationEngine fakeSimulationEngine() {
        return FakeEngine::run;
    }

    public static Report run(EngineSpec spec, long seed, long budget, RunControl control) {
        boolean block = spec.workloads().stream().anyMatch(w -> w.name().equals("block"));
        while (block) {
            if (control.cancelled()) {
                throw new RunCancelledException();
            }
            control.progress(spec.durationUs() / 2, 10);
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                throw new RunCancelledException();
            }
        }
        control.progress(spec.durationUs(), 1000);
        if (control.cancelled()) {
            throw new RunCancelledException();
        }
        long d = spec.durationUs();
        // Usage split by weight among the non-root groups, like a fair scheduler on 2 busy CPUs.
        long weights = spec.cgroups().stream().filter(c -> !c.path().equals("/")).mapToLong(CgroupSpec::weight).sum();
        List<Report.CgroupReport> cgroups = new ArrayList<>();
        for (CgroupSpec c : spec.cgroups()) {
            long periods = c.limited() ? d / c.periodUs() : 0;
            long usage = c.path().equals("/") || weights == 0 ? 2 * d : 2 * d * c.weight() / weights;
            cgroups.add(new Report.CgroupReport(c.path(), new Report.CpuStat(usage + seed, periods, periods / 2,
                    periods * 1000, 0, 0)));
        }
        List<Report.WorkloadReport> workloads = new ArrayList<>();
        for (WorkloadSpec w : spec.workloads()) {
            workloads.add(new Report.WorkloadReport(w.name(), d / 3, w.workUs() > 0 ? d / 4 + seed : -1,
                    1000.0 / 3 + seed, new Report.Latency(10 + seed, 20, 30.5, 40, 50, 100), 7, 3, 5));
        }
        int cpus = spec.topology().cpuCount();
        List<Double> per = java.util.Collections.nCopies(cpus, 75.25);
        return new Report(d, 1000 + seed, cgroups, workloads, new Report.CpuReport(75.25, 24.75, 1.5, 12.0, per),
                new Report.SchedulerReport(100, 10, 50, 5, 6, 0.5 + seed % 2));
    }
}
