package dev.schedsim.result;

import dev.schedsim.engine.Report;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the {@link ResultDocument} from the engine's reports.
 *
 * <p>Deterministic by construction: nothing but report values (no ids, no wall clock), every fractional number
 * rounded to 3 decimals half-even ({@link Num}). The same reports therefore give byte-identical JSON
 * ({@link ResultJson}).
 *
 * <p>With {@code repetitions > 1} every number of a variant is the mean over its runs (of the runs' rounded values)
 * and {@code runs} lists the runs one by one. A {@code completionUs} of a workload that did not finish (engine: -1)
 * is null, and so is its mean when any run did not finish. Each variant also carries its first repetition's time
 * series, from which the report page draws its plots. {@link ResultComparison} compares the variants.
 */
public final class ResultBuilder {
    private ResultBuilder() {
    }

    /**
     * @param seed    the plan's first seed (repetition r ran with seed + r)
     * @param labels  the variants' labels, in plan order
     * @param reports per variant, the reports of its repetitions (seed order)
     */
    public static ResultDocument build(long seed, List<String> labels, List<List<Report>> reports) {
        List<ResultDocument.Variant> variants = new ArrayList<>();
        for (int v = 0; v < labels.size(); v++) {
            variants.add(variant(seed, labels.get(v), reports.get(v)));
        }
        List<ResultDocument.ComparisonRow> comparison = null;
        if (labels.size() > 1) {
            comparison = new ArrayList<>();
            for (int v = 1; v < labels.size(); v++) {
                comparison.addAll(ResultComparison.compare(labels.get(0), reports.get(0), labels.get(v),
                        reports.get(v)));
            }
        }
        return new ResultDocument(variants, comparison);
    }

    private static ResultDocument.Variant variant(long seed, String label, List<Report> reports) {
        List<ResultDocument.Run> runs = new ArrayList<>();
        List<Long> seeds = new ArrayList<>();
        for (int r = 0; r < reports.size(); r++) {
            runs.add(run(seed + r, reports.get(r)));
            seeds.add(seed + r);
        }
        ResultDocument.Run mean = ResultMeans.mean(runs);
        Report.TimeSeries ts = reports.isEmpty() ? null : reports.get(0).timeSeries();
        return new ResultDocument.Variant(label, reports.size(), seeds, mean.simulatedUs(), mean.events(),
                mean.cgroups(), mean.workloads(), mean.cpus(), mean.scheduler(), runs.size() > 1 ? runs : null,
                ts == null ? null : timeSeries(ts));
    }

    private static ResultDocument.TimeSeries timeSeries(Report.TimeSeries ts) {
        List<Double> busy = new ArrayList<>();
        for (Double d : ts.busyCpus()) {
            busy.add(Num.round(d));
        }
        List<ResultDocument.CgroupSeries> cgroups = new ArrayList<>();
        for (Report.CgroupSeries c : ts.cgroups()) {
            cgroups.add(new ResultDocument.CgroupSeries(c.path(), c.usageUs(), c.throttledUs()));
        }
        return new ResultDocument.TimeSeries(ts.bucketUs(), busy, cgroups);
    }

    /** One run as the document shows it. */
    static ResultDocument.Run run(long seed, Report r) {
        List<ResultDocument.Cgroup> cgroups = new ArrayList<>();
        for (Report.CgroupReport c : r.cgroups()) {
            Report.CpuStat s = c.cpuStat();
            cgroups.add(new ResultDocument.Cgroup(c.path(), new ResultDocument.CpuStat(Num.of(s.usageUsec()),
                    Num.of(s.nrPeriods()), Num.of(s.nrThrottled()), Num.of(s.throttledUsec()), Num.of(s.nrBursts()),
                    Num.of(s.burstUsec()))));
        }
        List<ResultDocument.Workload> workloads = new ArrayList<>();
        for (Report.WorkloadReport w : r.workloads()) {
            workloads.add(new ResultDocument.Workload(w.name(), Num.of(w.cpuUsec()),
                    w.completionUs() < 0 ? null : Num.of(w.completionUs()), Num.round(w.throughputPerSec()),
                    latency(w.wakeupLatencyUs()), w.requestLatencyUs() == null ? null : latency(w.requestLatencyUs()),
                    Num.of(w.contextSwitches()), Num.of(w.migrations()), Num.of(w.wakeups())));
        }
        return new ResultDocument.Run(seed, Num.of(r.simulatedUs()), Num.of(r.events()), cgroups, workloads,
                cpus(r.cpus()), scheduler(r.scheduler()));
    }

    private static ResultDocument.Cpus cpus(Report.CpuReport c) {
        List<Double> per = new ArrayList<>();
        if (c.perCpuBusyPct() != null) {
            for (double d : c.perCpuBusyPct()) {
                per.add(Num.round(d));
            }
        }
        return new ResultDocument.Cpus(Num.round(c.busyPct()), Num.round(c.idlePct()), Num.round(c.overheadPct()),
                Num.round(c.avgPowerWatts()), per);
    }

    private static ResultDocument.Scheduler scheduler(Report.SchedulerReport s) {
        List<ResultDocument.LevelCost> costs = new ArrayList<>();
        for (Report.LevelCost lc : s.newidleCost()) {
            costs.add(new ResultDocument.LevelCost(lc.level(), Num.round(lc.minUs()), Num.round(lc.avgUs()),
                    Num.round(lc.maxUs()), Num.of(lc.samples())));
        }
        return new ResultDocument.Scheduler(Num.of(s.contextSwitches()), Num.of(s.migrations()), Num.of(s.wakeups()),
                Num.of(s.loadBalances()), Num.of(s.newidleBalances()), Num.round(s.overheadPct()),
                Num.of(s.tasksMoved()), Num.of(s.activeBalances()), Num.of(s.idleScans()), Num.of(s.cpusScanned()),
                Num.of(s.serializeAttempts()), Num.round(s.serializePct()), costs);
    }

    private static ResultDocument.Latency latency(Report.Latency l) {
        return new ResultDocument.Latency(Num.round(l.p50()), Num.round(l.p90()), Num.round(l.p99()),
                Num.round(l.p999()), Num.round(l.max()), Num.of(l.count()));
    }
}
