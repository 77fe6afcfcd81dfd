package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.api.Report;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The fit's bisection at a knife edge, without the engine: a stand-in for the simulation whose throttled share
 * rises from 0 to 100 % over 0.2 % of demand just above the quota, as cpu.stat does near it. The grid and its
 * neighbours (±2 and ±4 % of demand) straddle the observed share without reproducing it; bisecting the run
 * length between the straddling pair finds the workloads that do.
 */
class ObservedBisectionTests {
    static final int THREADS = 3;
    /** The advisor's real-kernel example: 0.6 CPUs of quota, 42 of 50 periods throttled, 0.598 CPUs used. */
    static final ObservedCounters.Window OBSERVED = new ObservedCounters.Window(60_000, 100_000, 5_026_000, 50, 42,
            67_557L, 3_004_795);
    static final long WINDOW_US = 5_000_000;

    /** The stand-in's throttled share at a demand: a ramp over [0.600, 0.602] CPUs. */
    static final DoubleUnaryOperator KNIFE_EDGE = d -> Math.max(0, Math.min(1, (d - 0.600) / 0.002));

    /** What the stand-in simulation gives {@code c}: usage at most the quota, the share from {@code share}. */
    private static ObservedFit.Tried simulated(ObservedFamily.Candidate c, DoubleUnaryOperator share) {
        double demand = c.demandCpus(THREADS);
        long periods = WINDOW_US / OBSERVED.periodUs();
        Report.CpuStat s = new Report.CpuStat(Math.round(Math.min(demand, 0.6) * WINDOW_US), periods,
                Math.round(share.applyAsDouble(demand) * periods), 0, 0, 0);
        double score = ObservedFit.score(OBSERVED, s, WINDOW_US);
        List<ObservedFit.Figures> figures = List.of(new ObservedFit.Figures(
                100.0 * s.nrThrottled() / s.nrPeriods(), (double) s.usageUsec() / WINDOW_US));
        return new ObservedFit.Tried(c.runUs(), c.sleepUs(), demand, score, score <= 1, figures);
    }

    /** The grid and every grid candidate's neighbours, as the fit simulates them before any bisection. */
    private static Map<ObservedFamily.Candidate, ObservedFit.Tried> gridAndNeighbours(DoubleUnaryOperator share) {
        Map<ObservedFamily.Candidate, ObservedFit.Tried> tried = new LinkedHashMap<>();
        List<ObservedFamily.Candidate> grid = ObservedFamily.grid(List.of(OBSERVED), THREADS);
        for (ObservedFamily.Candidate c : grid) {
            tried.put(c, simulated(c, share));
            for (ObservedFamily.Candidate n : ObservedFamily.around(c, THREADS)) {
                tried.putIfAbsent(n, simulated(n, share));
            }
        }
        return tried;
    }

    @Test
    void aKnifeEdgeTheGridStraddlesIsBisectedUntilAWorkloadReproducesIt() {
        Map<ObservedFamily.Candidate, ObservedFit.Tried> tried = gridAndNeighbours(KNIFE_EDGE);
        assertThat(tried.values()).noneMatch(ObservedFit.Tried::fits); // without the bisection: "no fit"
        assertThat(ObservedFamily.straddles(List.of(OBSERVED), tried, 10)).isNotEmpty();
        int before = tried.size();
        List<List<ObservedFamily.Candidate>> rounds = new ArrayList<>();
        ObservedFit.bisect(List.of(OBSERVED), tried, mids -> {
            rounds.add(mids);
            mids.forEach(c -> tried.put(c, simulated(c, KNIFE_EDGE)));
        });
        List<ObservedFit.Tried> fitting = tried.values().stream().filter(ObservedFit.Tried::fits).toList();
        assertThat(fitting).isNotEmpty();
        for (ObservedFit.Tried t : fitting) {
            assertThat(t.demandCpus()).isBetween(0.600, 0.602);
        }
        // bounded: at most BISECT_STEPS rounds of BISECT_PAIRS candidates, and it stops at the first fit
        assertThat(rounds.size()).isLessThanOrEqualTo(ObservedFit.BISECT_STEPS);
        assertThat(tried.size() - before).isLessThanOrEqualTo(ObservedFit.BISECT_STEPS * ObservedFit.BISECT_PAIRS);
        assertThat(rounds.get(rounds.size() - 1)).anyMatch(c -> tried.get(c).fits());
    }

    @Test
    void aShareThatFallsWithTheDemandIsNotBisected() {
        DoubleUnaryOperator falling = d -> 1 - KNIFE_EDGE.applyAsDouble(d);
        Map<ObservedFamily.Candidate, ObservedFit.Tried> tried = gridAndNeighbours(falling);
        assertThat(ObservedFamily.straddles(List.of(OBSERVED), tried, 10)).isEmpty();
        int before = tried.size();
        ObservedFit.bisect(List.of(OBSERVED), tried, mids -> mids.forEach(c -> tried.put(c, simulated(c, falling))));
        assertThat(tried).hasSize(before);
    }

    @Test
    void betweenHalvesTheRunAtTheSameCycleAndStopsAtOneMicrosecond() {
        ObservedFamily.Candidate lo = new ObservedFamily.Candidate(2_000, 7_950);
        ObservedFamily.Candidate hi = new ObservedFamily.Candidate(2_100, 7_850);
        assertThat(ObservedFamily.between(lo, hi)).isEqualTo(new ObservedFamily.Candidate(2_050, 7_900));
        assertThat(ObservedFamily.between(lo, new ObservedFamily.Candidate(2_001, 7_949))).isNull();
    }
}
