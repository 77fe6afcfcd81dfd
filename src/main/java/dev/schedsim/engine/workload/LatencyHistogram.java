package dev.schedsim.engine.workload;

import dev.schedsim.engine.api.Report;
import org.HdrHistogram.Histogram;

/** (model) The latency histograms of a run: recording that grows the range itself, and the reported percentiles. */
public final class LatencyHistogram {
    /** The bound of {@link Report.Latency#over100usPct()}: 100 µs, in ns. */
    static final long OVER_NS = 100_000;

    private LatencyHistogram() {
    }

    /** h with v recorded: h itself, or its {@link #grown} copy when v is beyond its range. */
    public static Histogram recorded(Histogram h, long v) {
        if (v > h.getHighestTrackableValue()) {
            h = grown(h, v);
        }
        h.recordValue(v);
        return h;
    }

    /**
     * A copy of h that holds up to 16 times v, for a value v beyond h's range. (HdrHistogram's own auto-resize
     * grows one bucket per doubling of the range, each time by catching an exception and copying the counts: a
     * run's latencies, from ns to the length of a throttle, took ~17 of those, 2.5 % of the 64-CPU benchmark.)
     * The copy keeps the bucket layout — lowest value 1, 3 significant digits — so every percentile is the same.
     * (Callers store the histogram only when it grew: a reference store costs a garbage-collector barrier.)
     */
    public static Histogram grown(Histogram h, long v) {
        Histogram g = new Histogram(1, Math.max(v, 2048) << 4, 3);
        g.setAutoResize(true);
        if (h.getTotalCount() > 0) {
            // (usually the first value overflows the initial range: nothing to copy)
            g.add(h);
        }
        return g;
    }

    /** Percentiles (µs) of a histogram of ns. */
    public static Report.Latency percentiles(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new Report.Latency(0, 0, 0, 0, 0, 0, 0.0);
        }
        long over = h.getTotalCount() - h.getCountBetweenValues(0, OVER_NS);
        return new Report.Latency(h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(90) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0, h.getMaxValue() / 1000.0,
                h.getTotalCount(), 100.0 * over / h.getTotalCount());
    }
}
