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
        for (int i = 0; i < pairs; i++) {
            // Alternate which side goes first, so neither always follows the other's garbage.
            if ((i & 1) == 0) {
                oldRate[i] = time(mx, oldRun, machine);
                newRate[i] = time(mx, newRun, machine);
            } else {
                newRate[i] = time(mx, newRun, machine);
                oldRate[i] = time(mx, oldRun, machine);
            }
            ratio[i] = newRate[i] / oldRate[i];
        }
        System.out.printf("median M events/s: old %.3f new %.3f; quartiles of %d pair ratios %.3f .. %.3f, median %.3f"
                + "%n", median(oldRate) / 1e6, median(newRate) / 1e6, pairs, quantile(ratio, 0.25),
                quantile(ratio, 0.75), median(ratio));
    }

    private static Method driver(String classes, String extraJar) throws Exception {
        URL[] urls = {new File(classes).toURI().toURL(), new File(extraJar).toURI().toURL()};
        ClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
        return Class.forName("dev.schedsim.bench.QuickBench", true, loader).getMethod("runOnce", String[].class);
    }

    /** Events per second of one run, on the thread's CPU time. */
    private static double time(ThreadMXBean mx, Method run, String[] machine) throws Exception {
        long t0 = mx.getCurrentThreadCpuTime();
        long events = (Long) run.invoke(null, (Object) machine);
        return events / ((mx.getCurrentThreadCpuTime() - t0) / 1e9);
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
