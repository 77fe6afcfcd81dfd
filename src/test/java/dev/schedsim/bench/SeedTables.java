package dev.schedsim.bench;

import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;

/**
 * What the seed tables share (bench Seed000Table … Seed004Table): their statistics over seeds, the band a model row
 * is held to (docs/model.md: a factor 2 of the published change; ±4 % where the published one is within ±2 %) and
 * the OLTP-like mix of seeds 002 and 004.
 */
final class SeedTables {
    private SeedTables() {
    }

    static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    /** The sample standard deviation. */
    static double std(double[] x) {
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return Math.sqrt(s / Math.max(1, x.length - 1));
    }

    /** The standard deviation in per cent of the mean (the posting's "(std%)"); 0 for a mean of 0. */
    static double pctStd(double[] x) {
        double m = mean(x);
        return m == 0 ? 0 : std(x) / m * 100;
    }

    /** The project's band: a factor 2 of the published change, or ±4 % where the published one is within ±2 %. */
    static boolean inBand(double model, double published) {
        if (Math.abs(published) <= 2) {
            return Math.abs(model) <= 4;
        }
        return model / published >= 0.5 && model / published <= 2;
    }

    static String yes(boolean b) {
        return b ? "yes" : "no";
    }

    /**
     * Seed 004's OLTP-like mix on {@code cpus} CPUs at {@code loadPct} % of its scenario's full load: for every 6 CPUs
     * 5 request-response pairs of 60/30 µs and 2.5 periodic threads of 300/200 µs with 30 % jitter (at 100 %: 6.5
     * CPUs of demand for every 6). Seed 002's OLTP row runs it at 100 %.
     */
    static List<WorkloadSpec> oltpMix(int cpus, int loadPct) {
        return List.of(WorkloadSpec.requestResponse("oltp", "/", cpus * 400 * loadPct / 100 / 480, 60, 30),
                WorkloadSpec.periodic("bg", "/", cpus * 200 * loadPct / 100 / 480, 300, 200, 30));
    }
}
