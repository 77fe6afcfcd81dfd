package dev.schedsim.advice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The limits advisor's search, without I/O: for each (period, burst) of the grid, a bisection over the quota
 * between {@code min} and {@code max} for the smallest quota whose every repetition meets the objective. A step
 * asks for a list of settings (each becomes a variant of one simulation, so the workers share them); the results
 * come back as {@link Outcome}s; the state is a plain record, stored between steps, so a restart or another
 * instance goes on where the last one stopped.
 *
 * <p>Bisection assumes that more quota never makes the objective worse. CFS bandwidth is monotone enough for
 * throttling (more runtime per period can only throttle later), less so for latency at the edge of a knife (a
 * quota just above the demand throttles once per period at a bad moment): every setting tried is kept, and
 * {@link #monotone} says whether one that failed lies above one that passed.
 *
 * <p>An observed advice sizes several workloads at once (those that fit the counters): each is a grid point of
 * its own ({@code workload}, its index), bisected on its own, and the answer is the largest of their smallest
 * passing quotas, so that it meets the objective whichever of them the container runs.
 */
public final class AdviceSearch {
    private AdviceSearch() {
    }

    /** One setting the search asks for or has tried; {@code workload} null but for an observed advice. */
    public record Setting(long quotaUs, long periodUs, long burstUs, Integer workload) {
        public Setting(long quotaUs, long periodUs, long burstUs) {
            this(quotaUs, periodUs, burstUs, null);
        }

        public String label() {
            return "q" + quotaUs + "-p" + periodUs + "-b" + burstUs + (workload == null ? "" : "-w" + workload);
        }

        /** As written to cpu.max. */
        public String cpuMax() {
            return quotaUs + " " + periodUs;
        }

        /** limits.cpu in millicores: the quota's share of the period, rounded up (the kubelet rounds down). */
        public long millicores() {
            return (quotaUs * 1000 + periodUs - 1) / periodUs;
        }
    }

    /** What a setting gave: the worst value over its repetitions of each measured figure, and the verdict. */
    public record Outcome(Setting setting, boolean met, Double throttledPeriodsPct, Double p99WakeupLatencyUs,
                          Double p99RequestLatencyUs, Double completionUs, Double usageCpus) {
        public Outcome(Setting setting, boolean met, Double throttledPeriodsPct, Double p99WakeupLatencyUs,
                       Double p99RequestLatencyUs, Double completionUs) {
            this(setting, met, throttledPeriodsPct, p99WakeupLatencyUs, p99RequestLatencyUs, completionUs, null);
        }
    }

    /** One grid point's bisection: the largest failing and the smallest passing quota found so far. */
    public record Point(long periodUs, long burstUs, long minUs, long maxUs, Long failingUs, Long passingUs,
                        boolean done, Integer workload) {
        public Point(long periodUs, long burstUs, long minUs, long maxUs, Long failingUs, Long passingUs,
                     boolean done) {
            this(periodUs, burstUs, minUs, maxUs, failingUs, passingUs, done, null);
        }

        Point with(Long failing, Long passing, boolean isDone) {
            return new Point(periodUs, burstUs, minUs, maxUs, failing, passing, isDone, workload);
        }

        Setting at(long quotaUs) {
            return new Setting(quotaUs, periodUs, burstUs, workload);
        }
    }

    /**
     * The search's state between steps; {@code current} is the request's own setting's outcome and
     * {@code unlimited} the cgroup's without a limit, both from step 1 (null in a row stored before they were).
     */
    public record State(long resolutionUs, int step, List<Point> points, List<Outcome> tried, Outcome current,
                        Outcome unlimited) {
        public State(long resolutionUs, int step, List<Point> points, List<Outcome> tried, Outcome current) {
            this(resolutionUs, step, points, tried, current, null);
        }

        public State withCurrent(Outcome o) {
            return new State(resolutionUs, step, points, tried, o, unlimited);
        }

        public State withUnlimited(Outcome o) {
            return new State(resolutionUs, step, points, tried, current, o);
        }
    }

    /**
     * The first state: every (period, burst) of the grid with its quota range (a burst above the quota is not
     * allowed by cpu.max.burst, so a point's range starts at its burst; a point whose burst is above max is left
     * out).
     */
    public static State start(long minUs, long maxUs, long resolutionUs, List<Long> periodsUs, List<Long> burstsUs) {
        return start(minUs, maxUs, resolutionUs, periodsUs, burstsUs, 0);
    }

    /** The first state with {@code workloads} workloads to size (0: the request's one, without an index). */
    public static State start(long minUs, long maxUs, long resolutionUs, List<Long> periodsUs, List<Long> burstsUs,
                              int workloads) {
        List<Point> points = new ArrayList<>();
        for (long p : periodsUs) {
            for (long b : burstsUs) {
                long lo = Math.max(minUs, b);
                for (int w = 0; lo <= maxUs && w < Math.max(1, workloads); w++) {
                    points.add(new Point(p, b, lo, maxUs, null, null, false, workloads == 0 ? null : w));
                }
            }
        }
        return new State(resolutionUs, 0, points, List.of(), null);
    }

    /** The most steps the search can take: both ends, then halving the range down to the resolution. */
    public static int maxSteps(long minUs, long maxUs, long resolutionUs) {
        long range = Math.max(1, (maxUs - minUs + resolutionUs - 1) / resolutionUs);
        int halvings = 64 - Long.numberOfLeadingZeros(range - 1);
        return 1 + halvings;
    }

    /** The settings the next step must simulate; empty when the search is over. */
    public static List<Setting> next(State s) {
        List<Setting> out = new ArrayList<>();
        for (Point p : s.points()) {
            if (p.done()) {
                continue;
            }
            if (p.passingUs() == null && p.failingUs() == null) {
                out.add(p.at(p.maxUs()));
                if (p.minUs() < p.maxUs()) {
                    out.add(p.at(p.minUs()));
                }
            } else {
                out.add(p.at(mid(p, s.resolutionUs())));
            }
        }
        return out;
    }

    /** Halfway between the failing and the passing quota, on the resolution's grid above min. */
    private static long mid(Point p, long res) {
        long lo = p.failingUs();
        long hi = p.passingUs();
        long m = lo + (hi - lo) / 2;
        long snapped = p.minUs() + (m - p.minUs()) / res * res;
        return snapped <= lo ? lo + res : snapped;
    }

    /** The state after a step's outcomes. */
    public static State record(State s, List<Outcome> outcomes) {
        List<Outcome> tried = new ArrayList<>(s.tried());
        tried.addAll(outcomes);
        List<Point> points = new ArrayList<>();
        for (Point p : s.points()) {
            Long failing = p.failingUs();
            Long passing = p.passingUs();
            for (Outcome o : outcomes) {
                Setting st = o.setting();
                if (st.periodUs() != p.periodUs() || st.burstUs() != p.burstUs()
                        || !java.util.Objects.equals(st.workload(), p.workload())) {
                    continue;
                }
                if (o.met()) {
                    passing = passing == null ? st.quotaUs() : Math.min(passing, st.quotaUs());
                } else {
                    failing = failing == null ? st.quotaUs() : Math.max(failing, st.quotaUs());
                }
            }
            boolean done = p.done()
                    || passing == null // even max fails: nothing in this point's range meets the objective
                    || passing == p.minUs() // min meets it already
                    || (failing != null && passing - failing <= s.resolutionUs());
            if (failing != null && passing != null && failing > passing) {
                done = true; // not monotone here: keep the smallest passing quota found
            }
            points.add(p.with(failing, passing, done));
        }
        return new State(s.resolutionUs(), s.step() + 1, points, tried, s.current(), s.unlimited());
    }

    /** Whether every point is settled. */
    public static boolean finished(State s) {
        return s.points().stream().allMatch(Point::done);
    }

    /**
     * The answer: the smallest passing quota, then the shorter period, then the smaller burst; null if none. With
     * several workloads, a (period, burst) passes at the largest of its workloads' passing quotas (the point
     * returned is that workload's), and only when every workload passed somewhere.
     */
    public static Point best(State s) {
        return envelope(s).stream().filter(p -> p.passingUs() != null)
                .min(Comparator.comparingLong(Point::passingUs).thenComparingLong(Point::periodUs)
                        .thenComparingLong(Point::burstUs))
                .orElse(null);
    }

    /** Per (period, burst): its point, or with several workloads the one that needs the most quota. */
    private static List<Point> envelope(State s) {
        java.util.Map<List<Long>, Point> worst = new java.util.LinkedHashMap<>();
        for (Point p : s.points()) {
            worst.merge(List.of(p.periodUs(), p.burstUs()), p, (a, b) -> a.passingUs() == null ? a
                    : b.passingUs() == null || b.passingUs() > a.passingUs() ? b : a);
        }
        return new ArrayList<>(worst.values());
    }

    /** With several workloads: each one's point at (period, burst). */
    public static List<Point> workloads(State s, long periodUs, long burstUs) {
        return s.points().stream().filter(p -> p.workload() != null && p.periodUs() == periodUs
                && p.burstUs() == burstUs).toList();
    }

    /** The outcome of a setting tried, or null. */
    public static Outcome outcome(State s, Setting setting) {
        for (Outcome o : s.tried()) {
            if (o.setting().equals(setting)) {
                return o;
            }
        }
        return null;
    }

    /** False when, at some grid point, a setting failed above one that passed. */
    public static boolean monotone(State s) {
        for (Outcome a : s.tried()) {
            for (Outcome b : s.tried()) {
                Setting x = a.setting();
                Setting y = b.setting();
                if (x.periodUs() == y.periodUs() && x.burstUs() == y.burstUs()
                        && java.util.Objects.equals(x.workload(), y.workload()) && a.met() && !b.met()
                        && y.quotaUs() > x.quotaUs()) {
                    return false;
                }
            }
        }
        return true;
    }
}
