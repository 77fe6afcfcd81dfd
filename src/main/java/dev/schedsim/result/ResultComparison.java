package dev.schedsim.result;

import dev.schedsim.engine.api.Report;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

/**
 * The {@code comparison} of a result: each variant against the first (the baseline), as kernel patch postings do.
 * {@code pctImprovement} is positive when the variant is better (lower times, latencies, throttling and idle share;
 * higher throughput); the std columns are the sample standard deviation over repetitions as a percentage of the
 * mean. A row is left out when either side has no value; {@code pctImprovement} is null when the baseline mean is 0
 * and the variant's is not. Computed from the reports' own values, not the rounded ones.
 */
final class ResultComparison {
    private ResultComparison() {
    }

    private record Metric(String name, boolean higherIsBetter, Function<Report, Double> value) {
    }

    static List<ResultDocument.ComparisonRow> compare(String baseLabel, List<Report> base, String label,
                                                      List<Report> variant) {
        List<ResultDocument.ComparisonRow> rows = new ArrayList<>();
        for (Metric m : metrics(base.get(0))) {
            double[] b = values(base, m);
            double[] v = values(variant, m);
            if (b == null || v == null) {
                continue;
            }
            double bm = mean(b);
            double vm = mean(v);
            Double pct;
            if (bm == 0) {
                pct = vm == 0 ? 0.0 : null;
            } else {
                pct = (m.higherIsBetter() ? vm - bm : bm - vm) / Math.abs(bm) * 100;
            }
            rows.add(new ResultDocument.ComparisonRow(m.name(), baseLabel, label, Num.round(bm), Num.round(vm),
                    pct == null ? null : Num.round(pct), stdPct(b, bm), stdPct(v, vm)));
        }
        return rows;
    }

    /** The compared metrics, in the document's order, from the baseline's first report. */
    private static List<Metric> metrics(Report first) {
        List<Metric> metrics = new ArrayList<>();
        for (int i = 0; i < first.workloads().size(); i++) {
            String w = first.workloads().get(i).name();
            metrics.add(new Metric("workloads." + w + ".completionUs", false, r -> {
                Report.WorkloadReport x = workload(r, w);
                return x == null || x.completionUs() < 0 ? null : (double) x.completionUs();
            }));
            metrics.add(new Metric("workloads." + w + ".wakeupLatencyUs.p99", false, r -> {
                Report.WorkloadReport x = workload(r, w);
                return x == null ? null : x.wakeupLatencyUs().p99();
            }));
            if (first.workloads().get(i).requestLatencyUs() != null) {
                metrics.add(new Metric("workloads." + w + ".requestLatencyUs.p99", false, r -> {
                    Report.WorkloadReport x = workload(r, w);
                    return x == null || x.requestLatencyUs() == null ? null : x.requestLatencyUs().p99();
                }));
            }
            metrics.add(new Metric("workloads." + w + ".throughputPerSec", true, r -> {
                Report.WorkloadReport x = workload(r, w);
                return x == null ? null : x.throughputPerSec();
            }));
        }
        for (Report.CgroupReport c : first.cgroups()) {
            String p = c.path();
            if ("/".equals(p)) {
                continue;
            }
            metrics.add(new Metric("cgroups." + p + ".nrThrottled", false, r -> {
                Report.CgroupReport x = cgroup(r, p);
                return x == null ? null : (double) x.cpuStat().nrThrottled();
            }));
            metrics.add(new Metric("cgroups." + p + ".throttledUsec", false, r -> {
                Report.CgroupReport x = cgroup(r, p);
                return x == null ? null : (double) x.cpuStat().throttledUsec();
            }));
        }
        metrics.add(new Metric("cpus.idlePct", false, r -> r.cpus().idlePct()));
        return metrics;
    }

    private static Report.WorkloadReport workload(Report r, String name) {
        for (Report.WorkloadReport w : r.workloads()) {
            if (w.name().equals(name)) {
                return w;
            }
        }
        return null;
    }

    private static Report.CgroupReport cgroup(Report r, String path) {
        for (Report.CgroupReport c : r.cgroups()) {
            if (c.path().equals(path)) {
                return c;
            }
        }
        return null;
    }

    private static double[] values(List<Report> runs, Metric m) {
        double[] out = new double[runs.size()];
        Iterator<Report> it = runs.iterator();
        for (int i = 0; i < out.length; i++) {
            Double d = m.value().apply(it.next());
            if (d == null || d.isNaN() || d.isInfinite()) {
                return null;
            }
            out[i] = d;
        }
        return out;
    }

    private static double mean(double[] xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return s / xs.length;
    }

    /** The sample standard deviation in % of the mean: 0 with one run, null when the mean is 0 and it is not. */
    private static Double stdPct(double[] xs, double mean) {
        if (xs.length < 2) {
            return 0.0;
        }
        double ss = 0;
        for (double x : xs) {
            ss += (x - mean) * (x - mean);
        }
        double std = Math.sqrt(ss / (xs.length - 1));
        if (mean == 0) {
            return std == 0 ? 0.0 : null;
        }
        return Num.round(std / Math.abs(mean) * 100);
    }
}
