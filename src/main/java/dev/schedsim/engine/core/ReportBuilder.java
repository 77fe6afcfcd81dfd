package dev.schedsim.engine.core;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.balance.BalanceCounters;
import dev.schedsim.engine.bandwidth.CfsBandwidth;
import dev.schedsim.engine.sched.Counters;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.select.SelectIdleSibling;
import dev.schedsim.engine.stats.Recorder;
import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.workload.LatencyHistogram;
import dev.schedsim.engine.workload.SimThread;
import dev.schedsim.engine.workload.WorkloadRun;
import java.util.ArrayList;
import java.util.List;

/**
 * The report of a finished run (docs/api.md, "The result"), assembled from what each mechanism counted: cpu.stat per
 * cgroup, per workload its threads' sums and latency percentiles, CPU busy/idle/overhead/power, the scheduler's
 * counters, the time series and the trace. Times in µs, percentages 0..100 rounded to 3 decimals.
 */
public final class ReportBuilder {
    /**
     * What the run counted, at its end; the report covers [originNs, nowNs] (originNs: the end of the warm-up runs,
     * 0 without).
     */
    public record Run(long originNs, long nowNs, long events, Cpu[] cpus, TaskGroup[] groups, CfsBandwidth[] bandwidth,
                      WorkloadRun[] workloads,
                      double energyJ, List<DomainLevel> levels, Counters counters, BalanceCounters balance,
                      SelectIdleSibling select, Recorder recorder, boolean trace) {
    }

    private ReportBuilder() {
    }

    public static Report build(Run r) {
        long window = r.nowNs() - r.originNs();
        long span = Math.max(1, window);
        int ncpu = r.cpus().length;
        double overheadPct = overheadPct(r.cpus(), span);
        return new Report(window / 1000, r.events(), cgroups(r.groups(), r.bandwidth()),
                workloads(r.workloads(), span, r.originNs()), cpus(r.cpus(), span, overheadPct, r.energyJ()),
                scheduler(r, span, ncpu, overheadPct), r.recorder().timeSeries(r.groups(), window),
                r.trace() ? r.recorder().trace(window) : null);
    }

    private static List<Report.CgroupReport> cgroups(TaskGroup[] groups, CfsBandwidth[] bandwidth) {
        List<Report.CgroupReport> cg = new ArrayList<>();
        for (TaskGroup g : groups) {
            CfsBandwidth b = bandwidth[g.index];
            Report.CpuStat st = b == null
                    ? new Report.CpuStat(g.usageNs / 1000, 0, 0, 0, 0, 0)
                    : new Report.CpuStat(g.usageNs / 1000, b.nrPeriods, b.nrThrottled, b.throttledTime / 1000,
                            b.nrBurst, b.burstTime / 1000);
            cg.add(new Report.CgroupReport(g.path, st));
        }
        return cg;
    }

    private static List<Report.WorkloadReport> workloads(WorkloadRun[] workloads, long span, long originNs) {
        List<Report.WorkloadReport> wl = new ArrayList<>();
        for (WorkloadRun w : workloads) {
            long cpuNs = 0;
            long work = 0;
            long cs = 0;
            long mig = 0;
            long wk = 0;
            for (SimThread s : w.tasks) {
                Task t = (Task) s;
                cpuNs += t.cpuNs;
                work += t.workDoneNs;
                cs += t.contextSwitches;
                mig += t.migrations;
                wk += t.wakeups;
            }
            double thr = w.program.throughputUnits(work) / (span / 1e9);
            long completion = w.completionNs >= 0 && w.finite ? (w.completionNs - originNs) / 1000 : -1;
            wl.add(new Report.WorkloadReport(w.spec.name(), cpuNs / 1000, completion, round3(thr),
                    LatencyHistogram.percentiles(w.latency()), cs, mig, wk,
                    w.requestLatency() == null ? null : LatencyHistogram.percentiles(w.requestLatency())));
        }
        return wl;
    }

    private static double overheadPct(Cpu[] cpus, long span) {
        long overhead = 0;
        for (Cpu cpu : cpus) {
            overhead += cpu.overheadNs;
        }
        return round3(100.0 * overhead / ((double) span * cpus.length));
    }

    private static Report.CpuReport cpus(Cpu[] cpus, long span, double overheadPct, double energyJ) {
        List<Double> per = new ArrayList<>(cpus.length);
        long busy = 0;
        for (Cpu cpu : cpus) {
            busy += cpu.busyNs;
            per.add(round3(100.0 * cpu.busyNs / span));
        }
        double busyPct = 100.0 * busy / ((double) span * cpus.length);
        return new Report.CpuReport(round3(busyPct), round3(100 - busyPct), overheadPct,
                round3(energyJ / (span / 1e9)), per);
    }

    private static Report.SchedulerReport scheduler(Run r, long span, int ncpu, double overheadPct) {
        BalanceCounters b = r.balance();
        List<Report.LevelCost> costs = new ArrayList<>();
        for (int l = 0; l < r.levels().size(); l++) {
            long n = b.newidleCostSamples[l];
            costs.add(new Report.LevelCost(r.levels().get(l).name(), n == 0 ? 0 : b.newidleCostMin[l] / 1000.0,
                    n == 0 ? 0 : round3(b.newidleCostSum[l] / n / 1000.0),
                    n == 0 ? 0 : b.newidleCostMax[l] / 1000.0, n));
        }
        Counters c = r.counters();
        return new Report.SchedulerReport(c.contextSwitches, c.migrations, c.wakeups, b.loadBalances,
                b.newidleBalances, overheadPct, b.tasksMoved, b.activeBalances, r.select().idleScans,
                r.select().cpusScanned, b.serializeAttempts,
                round3(100.0 * b.serializeNs / ((double) span * ncpu)), costs, c.wakeupMigrations, b.newidlePulls);
    }

    static double round3(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
