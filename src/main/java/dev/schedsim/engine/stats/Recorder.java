package dev.schedsim.engine.stats;

import dev.schedsim.engine.Report;
import dev.schedsim.engine.core.Task;
import dev.schedsim.engine.fair.TaskGroup;
import java.util.ArrayList;
import java.util.List;

/**
 * What the report plots and the trace export need: time series in fixed buckets (machine occupancy; per
 * cgroup CPU time and throttled time) and, when the spec asks for a trace, a bounded list of run slices and
 * throttle intervals. Intervals are split exactly across bucket boundaries.
 */
public final class Recorder {
    /** At most this many buckets per series. */
    public static final int MAX_BUCKETS = 240;
    /** At most this many trace events (then the trace says it was truncated). */
    public static final int MAX_TRACE_EVENTS = 40_000;

    private final long bucketNs;
    private final int buckets;
    /** Busy CPU time per bucket (machine occupancy). */
    public final double[] busyNs;
    /** Per task group: CPU time per bucket. */
    public final double[][] usageNs;
    /** Per task group: throttled time per bucket, summed over CPUs. */
    public final double[][] throttledNs;
    /** Per task group: bandwidth periods (cpu.stat nr_periods) counted in each bucket. */
    private final long[][] periods;
    /** Per task group: periods counted throttled (nr_throttled) in each bucket. */
    private final long[][] throttledPeriods;
    private final boolean tracing;
    private final List<Report.TraceEvent> events = new ArrayList<>();
    private boolean truncated;
    /** The bucket {@link #bucketOf} found last, and its start. */
    private int lastBucket;
    private long lastStart;

    public Recorder(long endNs, int groups, boolean tracing) {
        long b = tidy(Math.max(1_000_000L, (endNs + MAX_BUCKETS - 1) / MAX_BUCKETS));
        this.bucketNs = b;
        this.buckets = (int) Math.max(1, (endNs + b - 1) / b);
        this.busyNs = new double[buckets];
        this.usageNs = new double[groups][buckets];
        this.throttledNs = new double[groups][buckets];
        this.periods = new long[groups][];
        this.throttledPeriods = new long[groups][];
        this.tracing = tracing;
    }

    /**
     * The smallest of 1, 2 and 5 ms times a power of ten at or above ns: buckets a plot's reader can count with
     * (10 ms, not 9; 50 ms, not 42).
     */
    static long tidy(long ns) {
        for (long decade = 1_000_000L; ; decade *= 10) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * decade >= ns) {
                    return m * decade;
                }
            }
        }
    }

    /** Adds [from, to) to a series, split over the buckets it spans. */
    public void add(double[] series, long from, long to) {
        if (to <= from) {
            return;
        }
        addFrom(series, bucketOf(from), from, to);
    }

    /**
     * The bucket of time t. Times come close together, so the last answer is kept: most calls then skip the
     * integer division.
     */
    private int bucketOf(long t) {
        if (t >= lastStart && t - lastStart < bucketNs) {
            return lastBucket;
        }
        int i = (int) Math.min(buckets - 1, t / bucketNs);
        if (i < buckets - 1) {
            lastBucket = i;
            lastStart = i * bucketNs;
        }
        return i;
    }

    /** Adds [from, to) to the CPU time of {@code g} and of every group above it (update_curr()'s usage). */
    public void addUsage(TaskGroup g, long from, long to) {
        if (to <= from) {
            return;
        }
        int first = bucketOf(from);
        for (; g != null; g = g.parent) {
            addFrom(usageNs[g.index], first, from, to);
        }
    }

    private void addFrom(double[] series, int i, long from, long to) {
        long t = from;
        while (t < to && i < buckets) {
            long end = Math.min(to, (i + 1) * bucketNs);
            series[i] += end - t;
            t = end;
            i++;
        }
    }

    /**
     * do_sched_cfs_period_timer() counted {@code overrun} periods at {@code now} (and as many throttled ones when
     * {@code throttled}), as it adds them to nr_periods and nr_throttled. Arrays only for groups with a limit.
     */
    public void periods(TaskGroup g, long now, long overrun, boolean throttled) {
        if (periods[g.index] == null) {
            periods[g.index] = new long[buckets];
            throttledPeriods[g.index] = new long[buckets];
        }
        int i = (int) Math.min(buckets - 1, Math.max(0, now) / bucketNs);
        periods[g.index][i] += overrun;
        if (throttled) {
            throttledPeriods[g.index][i] += overrun;
        }
    }

    public void slice(int cpu, Task t, long start, long end) {
        if (!tracing || end <= start) {
            return;
        }
        event(new Report.TraceEvent("run", cpu, t.workload.spec.name() + "/" + t.id, t.group.path, start / 1000,
                (end - start) / 1000));
    }

    public void throttle(int cpu, TaskGroup g, long start, long end) {
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

    public Report.TimeSeries timeSeries(TaskGroup[] groups, long endNs) {
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
            // cpu.stat at each bucket's end, from the exact nanoseconds (the last is the report's cpu.stat).
            List<Long> usageUsec = new ArrayList<>(n);
            List<Long> nrPeriods = new ArrayList<>(n);
            List<Long> nrThrottled = new ArrayList<>(n);
            List<Long> throttledUsec = new ArrayList<>(n);
            long usage = 0;
            long throttled = 0;
            long p = 0;
            long pt = 0;
            for (int i = 0; i < n; i++) {
                usage += (long) usageNs[g.index][i];
                throttled += (long) throttledNs[g.index][i];
                p += periods[g.index] == null ? 0 : periods[g.index][i];
                pt += periods[g.index] == null ? 0 : throttledPeriods[g.index][i];
                usageUsec.add(usage / 1000);
                nrPeriods.add(p);
                nrThrottled.add(pt);
                throttledUsec.add(throttled / 1000);
            }
            cg.add(new Report.CgroupSeries(g.path, use, thr, usageUsec, nrPeriods, nrThrottled, throttledUsec));
        }
        return new Report.TimeSeries(bucketNs / 1000, busy, cg);
    }

    /** The recorded trace. */
    public Report.Trace trace() {
        return new Report.Trace(events, truncated);
    }
}
