package dev.schedsim.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The engine's events per second against the limit, measured in the same JVM a moment apart: each pair runs one
 * engine case ({@link QuickBench}) and then the {@link BareEventLoop} of 4 096 entries for as many events, both
 * timed on the thread's CPU time, so that the host's speed of the moment (which moves a run by ±20 % on a shared
 * machine) falls on both alike. Prints each side's median rate and the median of the pairs' ratios, bare loop over
 * engine: how many times the bare loop's time the engine spends per event (the goal: within 3).
 *
 * <p>usage: EngineVsBareLoop [PAIRS (default 8)] [CASE | PRESET THREADS DURATION_US] — after 3 warm-up pairs;
 * {@code -Dbare.entries=N} another heap size.
 */
public final class EngineVsBareLoop {
    private EngineVsBareLoop() {
    }

    public static void main(String[] args) {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        String[] machine = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        int entries = Integer.getInteger("bare.entries", 4096);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double[] engine = new double[pairs];
        double[] bare = new double[pairs];
        double[] ratio = new double[pairs];
        long digest = 0;
        long events = 0;
        for (int i = -3; i < pairs; i++) {
            long t0 = mx.getCurrentThreadCpuTime();
            events = QuickBench.runOnce(machine);
            long t1 = mx.getCurrentThreadCpuTime();
            BareEventLoop loop = new BareEventLoop(entries);
            long t2 = mx.getCurrentThreadCpuTime();
            digest ^= loop.run(events);
            long t3 = mx.getCurrentThreadCpuTime();
            if (i >= 0) {
                engine[i] = events / ((t1 - t0) / 1e9);
                bare[i] = events / ((t3 - t2) / 1e9);
                ratio[i] = bare[i] / engine[i];
            }
        }
        System.out.printf("case %s, %d events per run, %d pairs: engine %.2f M events/s, bare loop (%d entries) %.2f M"
                        + " events/s; bare/engine per pair: median %.2f (quartiles %.2f .. %.2f) [%x]%n",
                machine.length == 0 ? "mix" : String.join(" ", machine), events, pairs, median(engine) / 1e6, entries,
                median(bare) / 1e6, median(ratio), quantile(ratio, 0.25), quantile(ratio, 0.75), digest & 0xfff);
    }

    private static double median(double[] v) {
        return quantile(v, 0.5);
    }

    private static double quantile(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        double pos = q * (s.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return s[lo] + (s[hi] - s[lo]) * (pos - lo);
    }
}
