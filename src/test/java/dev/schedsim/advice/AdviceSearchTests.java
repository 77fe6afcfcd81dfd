package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The advisor's bisection against known thresholds: what it finds, how many steps it takes, what it reports. */
class AdviceSearchTests {
    /** Runs the search to its end against {@code meets}; returns the final state. */
    private static AdviceSearch.State run(AdviceSearch.State s, Predicate<AdviceSearch.Setting> meets) {
        while (!AdviceSearch.finished(s)) {
            List<AdviceSearch.Outcome> out = new ArrayList<>();
            for (AdviceSearch.Setting st : AdviceSearch.next(s)) {
                out.add(new AdviceSearch.Outcome(st, meets.test(st), null, null, null, null));
            }
            s = AdviceSearch.record(s, out);
        }
        return s;
    }

    @Test
    void findsTheSmallestPassingQuotaWithinTheResolutionAndItsBracket() {
        for (long threshold : new long[] {10_000, 10_001, 37_500, 61_234, 199_000, 200_000}) {
            AdviceSearch.State s = run(AdviceSearch.start(10_000, 200_000, 1_000, List.of(100_000L), List.of(0L)),
                    st -> st.quotaUs() >= threshold);
            AdviceSearch.Point best = AdviceSearch.best(s);
            assertThat(best).as("threshold " + threshold).isNotNull();
            assertThat(best.passingUs()).as("threshold " + threshold).isGreaterThanOrEqualTo(threshold)
                    .isLessThan(threshold + 1_000);
            if (threshold > 10_000) {
                assertThat(best.failingUs()).isLessThan(threshold).isGreaterThanOrEqualTo(best.passingUs() - 1_000);
            } else {
                assertThat(best.failingUs()).isNull(); // the minimum itself met it
            }
            assertThat(s.step()).isLessThanOrEqualTo(AdviceSearch.maxSteps(10_000, 200_000, 1_000));
            assertThat(AdviceSearch.monotone(s)).isTrue();
        }
        assertThat(AdviceSearch.maxSteps(10_000, 200_000, 1_000)).isEqualTo(9); // both ends, then 8 halvings of 190
    }

    @Test
    void nothingMeetsTheObjective() {
        AdviceSearch.State s = run(AdviceSearch.start(10_000, 50_000, 1_000, List.of(100_000L), List.of(0L)),
                st -> false);
        assertThat(AdviceSearch.best(s)).isNull();
        assertThat(s.step()).isEqualTo(1);
        assertThat(s.tried()).hasSize(2);
    }

    @Test
    void theGridPrefersTheSmallestQuotaThenTheShorterPeriodThenTheSmallerBurst() {
        // a burst lowers the quota needed; a shorter period too, except that 50 ms needs the same as 100 ms here
        AdviceSearch.State s = run(AdviceSearch.start(10_000, 100_000, 1_000, List.of(100_000L, 50_000L),
                List.of(0L, 20_000L)), st -> st.quotaUs() >= (st.burstUs() > 0 ? 40_000 : 60_000));
        AdviceSearch.Point best = AdviceSearch.best(s);
        assertThat(best.burstUs()).isEqualTo(20_000);
        assertThat(best.periodUs()).isEqualTo(50_000);
        assertThat(best.passingUs()).isEqualTo(40_000);
        // a burst's point starts at the burst (cpu.max.burst may not exceed the quota)
        assertThat(s.tried()).noneMatch(o -> o.setting().quotaUs() < o.setting().burstUs());
    }

    @Test
    void aFailureAboveAPassIsReportedAsNotMonotone() {
        AdviceSearch.Setting low = new AdviceSearch.Setting(40_000, 100_000, 0);
        AdviceSearch.Setting high = new AdviceSearch.Setting(60_000, 100_000, 0);
        AdviceSearch.Setting other = new AdviceSearch.Setting(80_000, 50_000, 0);
        AdviceSearch.State s = new AdviceSearch.State(1_000, 3, List.of(), List.of(
                new AdviceSearch.Outcome(low, true, null, null, null, null),
                new AdviceSearch.Outcome(high, false, null, null, null, null),
                new AdviceSearch.Outcome(other, false, null, null, null, null)), null);
        assertThat(AdviceSearch.monotone(s)).isFalse();
        AdviceSearch.State t = new AdviceSearch.State(1_000, 3, List.of(), List.of(
                new AdviceSearch.Outcome(high, true, null, null, null, null),
                new AdviceSearch.Outcome(low, false, null, null, null, null),
                new AdviceSearch.Outcome(other, false, null, null, null, null)), null); // another period: not compared
        assertThat(AdviceSearch.monotone(t)).isTrue();
    }

    @Test
    void settingsReadAsLimits() {
        AdviceSearch.Setting st = new AdviceSearch.Setting(55_000, 100_000, 0);
        assertThat(st.cpuMax()).isEqualTo("55000 100000");
        assertThat(st.millicores()).isEqualTo(550);
        assertThat(new AdviceSearch.Setting(33_334, 100_000, 0).millicores()).isEqualTo(334);
        assertThat(st.label()).isEqualTo("q55000-p100000-b0");
    }
}
