package dev.schedsim.advice;

import dev.schedsim.json.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The family an observed advice fits: {@code threads} threads of the engine's periodic workload, each running
 * runUs then sleeping sleepUs, without jitter. Two unknowns: the demand (threads × runUs / cycle, CPUs) and the
 * cycle (runUs + sleepUs + the 50 µs timer slack). The usage bounds the demand (at least what a window used; at
 * most what an unthrottled window used), so the grid is geometric in demand between those bounds and spans
 * cycles from 1 ms (smooth demand, throttled in every period or none) to 200 ms (bursts longer than a period).
 */
final class ObservedFamily {
    static final long[] CYCLES_US = {1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000};
    static final int DEMANDS = 12;
    /** A thread's duty at most: the family sleeps. */
    static final double MAX_DUTY = 0.95;
    /** Sleeps end this late in the engine (its periodic workload's timer slack). */
    static final long SLACK_US = 50;
    /** The refinement's neighbours of a candidate: its demand and its cycle times these. */
    static final double[] REFINE_DEMAND = {0.96, 0.98, 1.02, 1.04};
    static final double[] REFINE_CYCLE = {0.7, 1.4};

    private ObservedFamily() {
    }

    /** One workload of the family. */
    @io.swagger.v3.oas.annotations.media.Schema(name = "ObservedWorkload")
    record Candidate(long runUs, long sleepUs) {
        double demandCpus(int threads) {
            return (double) threads * runUs / (runUs + sleepUs + SLACK_US);
        }

        ObjectNode workload(int threads) {
            return Json.REQUEST.createObjectNode().put("name", ObservedFit.WORKLOAD).put("cgroup", ObservedFit.CGROUP)
                    .put("type", "periodic").put("threads", threads).put("runUs", runUs).put("sleepUs", sleepUs);
        }
    }

    static String describe(int threads) {
        return "periodic: " + threads + " thread" + (threads == 1 ? "" : "s") + ", each running runUs then sleeping "
                + "sleepUs (the engine's periodic workload, no jitter); demand = threads × runUs / (runUs + "
                + "sleepUs + 50 µs)";
    }

    /** The candidate of demand {@code demandCpus} and cycle {@code cycleUs}, or null when it has no sleep. */
    static Candidate of(double demandCpus, long cycleUs, int threads) {
        double duty = Math.min(MAX_DUTY, demandCpus / threads);
        long run = Math.max(1, Math.round(duty * cycleUs));
        long sleep = cycleUs - run - SLACK_US;
        return sleep < 0 ? null : new Candidate(run, sleep);
    }

    /** The demand's bounds from the usage: {lower, upper}, CPUs. */
    static double[] demandBounds(List<ObservedCounters.Window> windows, int threads) {
        double lo = 0.001;
        double hi = threads * MAX_DUTY;
        for (ObservedCounters.Window w : windows) {
            lo = Math.max(lo, w.usageCpus() * (1 - ObservedFit.USAGE_TOLERANCE));
            if (!w.limited() || w.nrThrottled() == 0) {
                hi = Math.min(hi, w.usageCpus() * (1 + ObservedFit.USAGE_TOLERANCE));
            }
        }
        return new double[] {lo, hi};
    }

    static String bounds(List<ObservedCounters.Window> windows, int threads) {
        double[] b = demandBounds(windows, threads);
        return String.format(Locale.ROOT, "demand at least %.3f CPUs, at most %.3f", b[0], b[1]);
    }

    /** The grid: {@link #DEMANDS} demands geometric between the bounds × {@link #CYCLES_US}; empty if none. */
    static List<Candidate> grid(List<ObservedCounters.Window> windows, int threads) {
        double[] b = demandBounds(windows, threads);
        List<Candidate> out = new ArrayList<>();
        if (b[0] > b[1]) {
            return out;
        }
        int n = b[1] / b[0] < 1.01 ? 1 : DEMANDS;
        for (int i = 0; i < n; i++) {
            double demand = n == 1 ? b[0] : b[0] * Math.pow(b[1] / b[0], (double) i / (n - 1));
            for (long cycle : CYCLES_US) {
                Candidate c = of(demand, cycle, threads);
                if (c != null && !out.contains(c)) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    /** Candidates near {@code c}: its demand a little up and down, its cycle shorter and longer. */
    static List<Candidate> around(Candidate c, int threads) {
        List<Candidate> out = new ArrayList<>();
        long cycle = c.runUs() + c.sleepUs() + SLACK_US;
        for (double f : REFINE_DEMAND) {
            add(out, of(c.demandCpus(threads) * f, cycle, threads));
        }
        for (double f : REFINE_CYCLE) {
            add(out, of(c.demandCpus(threads), Math.round(cycle * f), threads));
        }
        return out;
    }

    /**
     * Pairs of candidates tried that straddle an observed throttled share: of one cycle, adjacent in run length
     * among the candidates tried at that cycle, the shorter run throttled in fewer periods than observed and the
     * longer in more, at the first window with a limit both reached (the share rises with the demand there; a pair
     * the other way round is not monotone and not returned). The narrowest first (the run lengths' relative gap: a
     * bisection there reaches the finest demand), then the closest (the smaller of the two scores); at most
     * {@code max}.
     */
    static List<Candidate[]> straddles(List<ObservedCounters.Window> windows, Map<Candidate, ObservedFit.Tried> tried,
                                       int max) {
        List<Candidate> byCycleThenRun = new ArrayList<>(tried.keySet());
        byCycleThenRun.sort(Comparator.comparingLong((Candidate c) -> c.runUs() + c.sleepUs())
                .thenComparingLong(Candidate::runUs));
        List<Candidate[]> out = new ArrayList<>();
        for (int i = 1; i < byCycleThenRun.size(); i++) {
            Candidate lo = byCycleThenRun.get(i - 1);
            Candidate hi = byCycleThenRun.get(i);
            if (lo.runUs() + lo.sleepUs() == hi.runUs() + hi.sleepUs()
                    && straddle(windows, tried.get(lo).windows(), tried.get(hi).windows())) {
                out.add(new Candidate[] {lo, hi});
            }
        }
        out.sort(Comparator.comparingDouble((Candidate[] p) -> (double) (p[1].runUs() - p[0].runUs()) / p[0].runUs())
                .thenComparingDouble(p -> Math.min(tried.get(p[0]).score(), tried.get(p[1]).score())));
        return out.subList(0, Math.min(max, out.size()));
    }

    /** Whether the shorter run's figures lie below the observed share and the longer's above it. */
    private static boolean straddle(List<ObservedCounters.Window> windows, List<ObservedFit.Figures> lo,
                                    List<ObservedFit.Figures> hi) {
        for (int k = 0; k < Math.min(lo.size(), hi.size()); k++) {
            ObservedCounters.Window w = windows.get(k);
            if (w.limited()) {
                double observed = 100 * w.throttledShare();
                return lo.get(k).throttledPeriodsPct() < observed && hi.get(k).throttledPeriodsPct() > observed;
            }
        }
        return false;
    }

    /** The candidate of the two's cycle whose run is halfway between theirs, or null when they are 1 µs apart. */
    static Candidate between(Candidate lo, Candidate hi) {
        long run = (lo.runUs() + hi.runUs()) / 2;
        if (run <= lo.runUs() || run >= hi.runUs()) {
            return null;
        }
        return new Candidate(run, lo.runUs() + lo.sleepUs() - run);
    }

    private static void add(List<Candidate> out, Candidate c) {
        if (c != null && !out.contains(c)) {
            out.add(c);
        }
    }

    /**
     * At most {@code k} of the fitting candidates, spread over them ordered by demand then cycle (both ends kept):
     * the ones the search sizes, since each is a variant of every step.
     */
    static List<ObservedFit.Tried> spread(List<ObservedFit.Tried> fitting, int k) {
        if (fitting.size() <= k) {
            return fitting;
        }
        List<ObservedFit.Tried> out = new ArrayList<>();
        for (int j = 0; j < k; j++) {
            ObservedFit.Tried t = fitting.get((int) Math.round((double) j * (fitting.size() - 1) / Math.max(1, k - 1)));
            if (!out.contains(t)) {
                out.add(t);
            }
        }
        return out;
    }
}
