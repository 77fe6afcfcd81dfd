package dev.schedsim.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * What the report plots and the trace export need: time series in fixed buckets (machine occupancy; per
 * cgroup CPU time and throttled time) and, when the spec asks for a trace, a bounded list of run slices and
 * throttle intervals. Intervals are split exactly across bucket boundaries.
 */
final class Recorder {
    /** At most this many buckets per series. */
    static final int MAX_BUCKETS = 240;
    /** At most this many trace events (then the trace says it was truncated). */
    static final int MAX_TRACE_EVENTS = 40_000;

    final long bucketNs;
    final int buckets;
    final double[] busyNs;
    final double[][] usageNs;
    final double[][] throttledNs;
    final boolean tracing;
    final List<Report.TraceEvent> events = new ArrayList<>();
    boolean truncated;

    Recorder(long endNs, int groups, boolean tracing) {
        long b = Math.max(1_000_000L, (endNs + MAX_BUCKETS - 1) / MAX_BUCKETS);
        b = (b + 999_999) / 1_000_000 * 1_000_000;
        this.bucketNs = b;
        this.buckets = (int) Math.max(1, (endNs + b - 1) / b);
        this.busyNs = new double[buckets];
        this.usageNs = new double[groups][buckets];
        this.throttledNs = new double[groups][buckets];
        this.tracing = tracing;
    }

    /** Adds [from, to) to a series, split over the buckets it spans. */
    void add(double[] series, long from, long to) {
        if (to <= from) {
            return;
        }
        int i = (int) Math.min(buckets - 1, from / bucketNs);
        long t = from;
        while (t < to && i < buckets) {
            long end = Math.min(to, (i + 1) * bucketNs);
            series[i] += end - t;
            t = end;
            i++;
        }
    }

    void slice(int cpu, Task t, long start, long end) {
        if (!tracing || end <= start) {
            return;
        }
        event(new Report.TraceEvent("run", cpu, t.workload.spec.name() + "/" + t.id, t.group.path, start / 1000,
                (end - start) / 1000));
    }

    void throttle(int cpu, TaskGroup g, long start, long end) {
        if (!tracing || end <= start) {
            return;
        }
        event(new Report.TraceEvent("throttled", cpu, g.path, g.path, start / 1000, (end - start) / 1000));
    }

    private void event(Report.TraceEvent e) {
        if (events.size() >= MAX_TRACE_EVENTS) {
            truncated = true;
            return;
        }
        events.add(e);
    }

    Report.TimeSeries timeSeries(TaskGroup[] groups, long endNs) {
        int n = (int) Math.max(1, Math.min(buckets, (endNs + bucketNs - 1) / bucketNs));
        List<Double> busy = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            busy.add(Math.round(busyNs[i] / bucketNs * 1000.0) / 1000.0);
        }
        List<Report.CgroupSeries> cg = new ArrayList<>();
        for (TaskGroup g : groups) {
            List<Long> use = new ArrayList<>(n);
            List<Long> thr = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                use.add(Math.round(usageNs[g.index][i] / 1000.0));
                thr.add(Math.round(throttledNs[g.index][i] / 1000.0));
            }
            cg.add(new Report.CgroupSeries(g.path, use, thr));
        }
        return new Report.TimeSeries(bucketNs / 1000, busy, cg);
    }
}
