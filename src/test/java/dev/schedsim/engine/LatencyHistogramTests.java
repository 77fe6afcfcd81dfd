package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.workload.LatencyHistogram;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The engine grows its latency histograms itself (LatencyHistogram.grown) instead of by HdrHistogram's auto-resize;
 * the report's figures — percentiles, maximum, count — must be exactly those of the auto-resized histogram.
 */
class LatencyHistogramTests {

    @Test
    void growingByCopyReportsWhatAutoResizeReports() {
        SplittableRandom rnd = new SplittableRandom(11);
        Histogram auto = new Histogram(3);
        Histogram grown = new Histogram(3);
        long firstRange = grown.getHighestTrackableValue();
        for (int i = 0; i < 200_000; i++) {
            // ns to seconds, the way wakeup latencies spread: log-uniform, with zeros.
            long v = rnd.nextInt(50) == 0 ? 0 : (long) Math.pow(10, rnd.nextDouble() * 9.5);
            auto.recordValue(v);
            if (v > grown.getHighestTrackableValue()) {
                grown = LatencyHistogram.grown(grown, v);
            }
            grown.recordValue(v);
        }
        assertTrue(grown.getHighestTrackableValue() > firstRange, "the histogram had to grow");
        assertEquals(auto.getTotalCount(), grown.getTotalCount());
        assertEquals(auto.getMaxValue(), grown.getMaxValue());
        assertEquals(auto.getMinValue(), grown.getMinValue());
        for (double p : new double[] {0, 1, 10, 50, 90, 99, 99.9, 99.99, 100}) {
            assertEquals(auto.getValueAtPercentile(p), grown.getValueAtPercentile(p), "p" + p);
        }
    }
}
