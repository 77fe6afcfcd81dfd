package dev.schedsim.advice;

import dev.schedsim.engine.EngineRuns;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.LimitExceededException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.json.Json;
import dev.schedsim.request.CostEstimate;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.simulations.RequestValidator;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which workloads of the family reproduce what was observed: each candidate of {@link ObservedFamily} simulated
 * at each window's cpu.max for (up to {@link #MAX_SIMULATED_US} of) the window, in-process while the advice is
 * accepted, and kept when every window's figures are within their noise ({@link #score}). The runs' estimated
 * events are bounded by {@code schedsim.limits.max-submission-events} like a submission's, so a fit costs at most
 * what one accepted simulation may.
 */
@Component
class ObservedFit {
    /** A window longer than this is simulated this long: the figures compared are shares, not counts. */
    static final long MAX_SIMULATED_US = 10_000_000;
    /** The usage's noise, relative: the readings' timing and the kernel's accounting against the model's. */
    static final double USAGE_TOLERANCE = 0.05;
    /** The throttled share's noise: this many binomial standard deviations (about 95 %), plus one period. */
    static final double SIGMAS = 2;
    static final long SEED = 42;
    static final String WORKLOAD = "observed";
    static final String CGROUP = "/observed";
    static final String NOISE = "a window is reproduced when the simulated nr_throttled/nr_periods is within "
            + "2 binomial standard deviations (pooled over the observed and the simulated periods) plus one period "
            + "of the observed share, and the simulated usage within 5 % of the observed (usage_usec over the "
            + "window); throttled_usec is shown, not fitted (the kernel sums it per CPU run queue)";
    static final String METHOD = "every candidate simulated at each window's cpu.max for the window (at most 10 s; "
            + "the shares compared, not the counts), seed 42, in the windows' order, a candidate dropped at the "
            + "first window it does not reproduce; then the three best refined (demand ±2 and ±4 %, cycle ×0.7 "
            + "and ×1.4) and simulated the same way; when none fits, two candidates of one cycle whose throttled shares "
            + "straddle the observed one are bisected on the run length (at most 8 rounds of 2 pairs)";
    /** The bisection's bounds when nothing fits: rounds, and straddling pairs bisected a round. */
    static final int BISECT_STEPS = 8;
    static final int BISECT_PAIRS = 2;

    private final RequestValidator validator;
    private final RequestReader reader;
    private final Limits limits;

    ObservedFit(RequestValidator validator, RequestReader reader, Limits limits) {
        this.validator = validator;
        this.reader = reader;
        this.limits = limits;
    }

    /** One candidate as simulated: its figures at each window it reached and its score (max over them). */
    @Schema(name = "ObservedCandidate")
    record Tried(long runUs, long sleepUs, double demandCpus, double score, boolean fits,
                 @Schema(description = "per window reached: the simulated throttled periods %, usage CPUs")
                 List<Figures> windows) {
    }

    @Schema(name = "ObservedFigures")
    record Figures(double throttledPeriodsPct, double usageCpus) {
    }

    /** The fit: the family, the noise, how it was done and every candidate tried (those that fit first). */
    @Schema(name = "ObservedFit")
    record Result(String family, String noise, String method, List<ObservedCounters.Window> observed,
                  List<Tried> tried) {
        List<Tried> fitting() {
            return tried.stream().filter(Tried::fits).toList();
        }
    }

    /** Fits {@code windows} (read and checked) with the family of {@code threads} threads on {@code topology}. */
    Result fit(List<ObservedCounters.Window> windows, int threads, SimulationRequest.TopologyRequest topology) {
        List<ObservedFamily.Candidate> grid = ObservedFamily.grid(windows, threads);
        if (grid.isEmpty()) {
            throw InvalidRequestException.of("observed", "the windows contradict each other: one used more CPU "
                    + "than another used unthrottled (" + ObservedFamily.bounds(windows, threads)
                    + "); were they of the same workload, with the limits stated?");
        }
        checkCost(grid, windows, threads, topology);
        Map<ObservedFamily.Candidate, Tried> tried = new LinkedHashMap<>();
        simulate(grid, windows, threads, topology, tried);
        List<ObservedFamily.Candidate> refined = new ArrayList<>();
        tried.entrySet().stream().sorted(Comparator.comparingDouble(e -> e.getValue().score())).limit(3)
                .forEach(e -> ObservedFamily.around(e.getKey(), threads).stream()
                        .filter(c -> !tried.containsKey(c) && !refined.contains(c)).forEach(refined::add));
        simulate(refined, windows, threads, topology, tried);
        bisect(windows, tried, mids -> simulate(mids, windows, threads, topology, tried));
        List<Tried> all = new ArrayList<>(tried.values());
        all.sort(Comparator.comparing((Tried t) -> !t.fits()).thenComparingDouble(Tried::demandCpus)
                .thenComparingLong(t -> t.runUs() + t.sleepUs()));
        return new Result(ObservedFamily.describe(threads), NOISE, METHOD, windows, all);
    }

    /**
     * Near the quota nr_throttled is a knife edge in the demand (the advisor's real-kernel example, 3 threads on
     * validation-2c: the kernel's window throttled in 84 % of its periods at 0.598 CPUs, while a grid workload
     * throttled in 98 % at 0.601), so the grid's candidates can straddle an observed share with none within its
     * noise. Before concluding that nothing fits, bisect the run
     * length between the closest straddling pairs ({@link ObservedFamily#straddles}), each round simulating the
     * midpoints like any candidate ({@code simulate} adds them to {@code tried}), until one fits or the pairs are
     * 1 µs apart.
     */
    static void bisect(List<ObservedCounters.Window> windows, Map<ObservedFamily.Candidate, Tried> tried,
                       Consumer<List<ObservedFamily.Candidate>> simulate) {
        for (int round = 0; round < BISECT_STEPS && tried.values().stream().noneMatch(Tried::fits); round++) {
            List<ObservedFamily.Candidate> mids = new ArrayList<>();
            for (ObservedFamily.Candidate[] pair : ObservedFamily.straddles(windows, tried, Integer.MAX_VALUE)) {
                ObservedFamily.Candidate m = ObservedFamily.between(pair[0], pair[1]);
                if (m != null && !tried.containsKey(m) && !mids.contains(m) && mids.size() < BISECT_PAIRS) {
                    mids.add(m);
                }
            }
            if (mids.isEmpty()) {
                return;
            }
            simulate.accept(mids);
        }
    }

    /** The candidates at each window in turn, each run only while it reproduced the windows before. */
    private void simulate(List<ObservedFamily.Candidate> candidates, List<ObservedCounters.Window> windows,
                          int threads, SimulationRequest.TopologyRequest topology,
                          Map<ObservedFamily.Candidate, Tried> tried) {
        List<ObservedFamily.Candidate> alive = new ArrayList<>(candidates);
        Map<ObservedFamily.Candidate, List<Figures>> figures = new LinkedHashMap<>();
        Map<ObservedFamily.Candidate, Double> scores = new LinkedHashMap<>();
        for (ObservedCounters.Window w : windows) {
            if (alive.isEmpty()) {
                break;
            }
            List<EngineRuns.Run> runs = new ArrayList<>();
            long budget = 0;
            for (ObservedFamily.Candidate c : alive) {
                var plan = validator.accept(reader.read(request(c, w, threads, topology), SimulationRequest.class))
                        .plan();
                runs.add(new EngineRuns.Run(plan.variants().get(0).spec(), SEED));
                budget = Math.max(budget, plan.eventBudget());
            }
            List<Report> reports = EngineRuns.runAll(runs, EngineRuns.defaultThreads(), budget);
            List<ObservedFamily.Candidate> next = new ArrayList<>();
            for (int i = 0; i < alive.size(); i++) {
                ObservedFamily.Candidate c = alive.get(i);
                Report.CpuStat s = reports.get(i).cgroups().stream().filter(g -> g.path().equals(CGROUP))
                        .findFirst().orElseThrow().cpuStat();
                Figures f = new Figures(s.nrPeriods() == 0 ? 0 : 100.0 * s.nrThrottled() / s.nrPeriods(),
                        (double) s.usageUsec() / reports.get(i).simulatedUs());
                figures.computeIfAbsent(c, k -> new ArrayList<>()).add(f);
                double score = Math.max(scores.getOrDefault(c, 0.0), score(w, s, reports.get(i).simulatedUs()));
                scores.put(c, score);
                if (score <= 1) {
                    next.add(c);
                }
            }
            alive = next;
        }
        for (ObservedFamily.Candidate c : candidates) {
            double score = scores.get(c);
            tried.put(c, new Tried(c.runUs(), c.sleepUs(), c.demandCpus(threads), round(score),
                    score <= 1 && figures.get(c).size() == windows.size(), figures.get(c)));
        }
    }

    /**
     * How far a simulated window is from the observed, in units of its noise: above 1, not reproduced. The
     * throttled share's noise is binomial: p(1-p) over the observed periods and over the simulated ones, p
     * pooled (with one throttled and one unthrottled period added, so that 0 of n still has a spread).
     */
    static double score(ObservedCounters.Window w, Report.CpuStat s, long simulatedUs) {
        double usage = (double) s.usageUsec() / simulatedUs;
        double usageTolerance = Math.max(USAGE_TOLERANCE * w.usageCpus(), 0.005);
        double score = Math.abs(usage - w.usageCpus()) / usageTolerance;
        if (w.limited()) {
            long n = w.nrPeriods();
            long m = Math.max(1, s.nrPeriods());
            double simulated = (double) s.nrThrottled() / m;
            double pooled = (w.nrThrottled() + s.nrThrottled() + 1.0) / (n + m + 2.0);
            double tolerance = SIGMAS * Math.sqrt(pooled * (1 - pooled) * (1.0 / n + 1.0 / m)) + 1.0 / n;
            score = Math.max(score, Math.abs(simulated - w.throttledShare()) / tolerance);
        }
        return score;
    }

    /** The fit's runs' estimated events against schedsim.limits.max-submission-events (422 above). */
    private void checkCost(List<ObservedFamily.Candidate> grid, List<ObservedCounters.Window> windows, int threads,
                           SimulationRequest.TopologyRequest topology) {
        double events = 0;
        for (ObservedCounters.Window w : windows) {
            for (ObservedFamily.Candidate c : grid) {
                EngineSpec spec = validator.accept(reader.read(request(c, w, threads, topology),
                        SimulationRequest.class)).plan().variants().get(0).spec();
                events += CostEstimate.events(spec);
            }
        }
        // (and the refinement's runs, at most three candidates' neighbours, and the bisection's)
        events *= (grid.size() + 3.0 * (ObservedFamily.REFINE_DEMAND.length + ObservedFamily.REFINE_CYCLE.length)
                + BISECT_STEPS * BISECT_PAIRS) / grid.size();
        if (events > limits.maxSubmissionEvents()) {
            throw new LimitExceededException(List.of(new LimitExceededException.Exceeded(
                    "schedsim.limits.max-submission-events", limits.maxSubmissionEvents(), (long) events,
                    "observed", "fewer or shorter windows, or fewer threads")));
        }
    }

    /** One fit run's simulation request: the candidate in a cgroup at the window's cpu.max. */
    static String request(ObservedFamily.Candidate c, ObservedCounters.Window w, int threads,
                          SimulationRequest.TopologyRequest topology) {
        ObjectNode r = Json.REQUEST.createObjectNode();
        r.put("name", "observed-fit");
        r.set("topology", Json.REQUEST.valueToTree(topology));
        r.putArray("cgroups").addObject().put("path", CGROUP).put("cpuMax", w.cpuMax());
        r.putArray("workloads").add(c.workload(threads));
        r.put("durationMs", Math.max(1, Math.min(w.windowUs(), MAX_SIMULATED_US) / 1000));
        r.put("seed", SEED);
        return Json.REQUEST.writeValueAsString(r);
    }

    private static double round(double x) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.3f", x));
    }
}
