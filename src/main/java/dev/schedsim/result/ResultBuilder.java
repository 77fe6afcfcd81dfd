package dev.schedsim.result;

import dev.schedsim.engine.api.Report;
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
        return build(seed, labels, reports, null);
    }

    /**
     * As {@link #build(long, List, List)}, each variant with its {@code cadvisor} block: per cgroup its cpu.stat
     * in cAdvisor's names, labelled {@code id} and the labels {@code cgroupLabels} gives its path (a pod's
     * namespace, pod and container); null: no block (the form results had before it, which tests pin).
     *
     */
    public static ResultDocument build(long seed, List<String> labels, List<List<Report>> reports,
                                       Cadvisor cadvisor) {
        List<ResultDocument.Variant> variants = new ArrayList<>();
        for (int v = 0; v < labels.size(); v++) {
            ResultDocument.Variant variant = variant(seed, labels.get(v), reports.get(v));
            if (cadvisor != null) {
                variant = withCadvisor(variant, cadvisor, cadvisor.quotas().get(v));
            }
            variants.add(variant);
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

    /**
     * What the cAdvisor block needs beyond the reports.
     *
     * @param cgroupLabels per cgroup path, its labels besides {@code id}
     * @param quotas       per variant, the paths of cgroups with a quota
     */
    public record Cadvisor(java.util.Map<String, java.util.Map<String, String>> cgroupLabels,
                           List<java.util.Set<String>> quotas) {
    }

    private static ResultDocument.Variant withCadvisor(ResultDocument.Variant v, Cadvisor c,
                                                       java.util.Set<String> quotas) {
        List<ResultDocument.Cadvisor> out = new ArrayList<>();
        for (ResultDocument.Cgroup g : v.cgroups()) {
            ResultDocument.CpuStat s = g.cpuStat();
            boolean cfs = quotas.contains(g.path());
            out.add(new ResultDocument.Cadvisor(labels(g.path(), c.cgroupLabels()), seconds(s.usageUsec()),
                    cfs ? s.nrPeriods() : null, cfs ? s.nrThrottled() : null, cfs ? seconds(s.throttledUsec()) : null));
        }
        return new ResultDocument.Variant(v.label(), v.repetitions(), v.seeds(), v.simulatedUs(), v.events(),
                v.cgroups(), v.workloads(), v.cpus(), v.scheduler(), v.runs(), v.timeSeries(), out);
    }

    /** {@code id} (cAdvisor's cgroup path label) first, then the pod's labels in name order. */
    public static java.util.Map<String, String> labels(String path,
                                                      java.util.Map<String, java.util.Map<String, String>> all) {
        java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
        labels.put("id", path);
        new java.util.TreeMap<>(all.getOrDefault(path, java.util.Map.of())).forEach(labels::put);
        return labels;
    }

    /** µs as seconds, to the µs (cAdvisor divides nanoseconds by time.Second). */
    private static Double seconds(Double us) {
        return us == null ? null : new java.math.BigDecimal(us).movePointLeft(6)
                .setScale(6, java.math.RoundingMode.HALF_EVEN).doubleValue();
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
                Num.of(s.serializeAttempts()), Num.round(s.serializePct()), costs, Num.of(s.wakeupMigrations()),
                Num.of(s.newidlePulls()));
    }

    private static ResultDocument.Latency latency(Report.Latency l) {
        return new ResultDocument.Latency(Num.round(l.p50()), Num.round(l.p90()), Num.round(l.p99()),
                Num.round(l.p999()), Num.round(l.max()), Num.of(l.count()),
                l.over100usPct() == null ? null : Num.round(l.over100usPct()));
    }
}
