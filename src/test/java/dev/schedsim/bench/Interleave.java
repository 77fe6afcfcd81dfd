package dev.schedsim.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;

/**
 * Two builds of the engine in one JVM, each in its own class loader, run alternately: old, new, new, old … Each
 * pair of runs is a few hundred milliseconds apart, so the host's noise on a shared machine (which moves a
 * single run by ±20 % and separate JVMs by more) falls on both sides of a pair alike; the ratio of each pair is
 * kept, and the median of those ratios is the result. Uses reflection only, so it compiles without the engine.
 *
 * <p>The ratio is of CPU time per run (old / new: above 1 is faster), not of events per second: a change to the
 * model may add events (machine noise adds interrupts and background threads), and then events per second
 * would count the new events as speed. Both are printed; for an unchanged model they are the same ratio.
 *
 * <p>usage: Interleave OLD_CLASSES NEW_CLASSES EXTRA_JAR WARMUP PAIRS [CASE | PRESET THREADS DURATION_US] —
 * the class directories each hold an engine and the bench driver ({@link QuickBench#runOnce}); EXTRA_JAR is
 * what both need besides (HdrHistogram).
 */
public final class Interleave {
    private Interleave() {
    }

    public static void main(String[] args) throws Exception {
        Method oldRun = driver(args[0], args[2]);
        Method newRun = driver(args[1], args[2]);
        int warmup = Integer.parseInt(args[3]);
        int pairs = Integer.parseInt(args[4]);
        String[] machine = Arrays.copyOfRange(args, 5, args.length);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < warmup; i++) {
            time(mx, oldRun, machine);
            time(mx, newRun, machine);
        }
        double[] ratio = new double[pairs];
        double[] oldRate = new double[pairs];
        double[] newRate = new double[pairs];
        long[] events = new long[2];
        for (int i = 0; i < pairs; i++) {
            // Alternate which side goes first, so neither always follows the other's garbage.
            double[] o;
            double[] n;
            if ((i & 1) == 0) {
                o = time(mx, oldRun, machine);
                n = time(mx, newRun, machine);
            } else {
                n = time(mx, newRun, machine);
                o = time(mx, oldRun, machine);
            }
            oldRate[i] = o[0] / o[1];
            newRate[i] = n[0] / n[1];
            events[0] = (long) o[0];
            events[1] = (long) n[0];
            ratio[i] = o[1] / n[1];
        }
        System.out.printf("median M events/s: old %.3f new %.3f (events per run: old %d new %d); quartiles of %d pair"
                + " speed ratios (old CPU time / new) %.3f .. %.3f, median %.3f%n", median(oldRate) / 1e6,
                median(newRate) / 1e6, events[0], events[1], pairs, quantile(ratio, 0.25), quantile(ratio, 0.75),
                median(ratio));
    }

    private static Method driver(String classes, String extraJar) throws Exception {
        URL[] urls = {new File(classes).toURI().toURL(), new File(extraJar).toURI().toURL()};
        ClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
        return Class.forName("dev.schedsim.bench.QuickBench", true, loader).getMethod("runOnce", String[].class);
    }

    /** One run: its event count and the seconds of the thread's CPU time it took. */
    private static double[] time(ThreadMXBean mx, Method run, String[] machine) throws Exception {
        long t0 = mx.getCurrentThreadCpuTime();
        long events = (Long) run.invoke(null, (Object) machine);
        return new double[] {events, (mx.getCurrentThreadCpuTime() - t0) / 1e9};
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
