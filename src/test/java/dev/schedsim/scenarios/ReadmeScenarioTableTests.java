package dev.schedsim.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link ReadmeScenarioTable} reads a cell's figures and when a produced value is what a figure shows. */
class ReadmeScenarioTableTests {

    @Test
    void aCellsFiguresAreReadInOrderWithSignGroupingAndDecimalsButNotFromWords() {
        assertThat(ReadmeScenarioTable.figures("schbench -R latency p99 5 050 µs → 55 µs; completion 46.9 s "
                + "(−21 %), throughput +6.3 %, SMT 3 / MC 28, 0.003 % of cycles (139 626 → 66 CAS)"))
                .isEqualTo(List.of(new BigDecimal("5050"), new BigDecimal("55"), new BigDecimal("46.9"),
                        new BigDecimal("-21"), new BigDecimal("6.3"), new BigDecimal("3"), new BigDecimal("28"),
                        new BigDecimal("0.003"), new BigDecimal("139626"), new BigDecimal("66")));
    }

    @Test
    void aValueMatchesAFigureWhenItRoundsToItAtTheDigitsShown() {
        assertThat(ReadmeScenarioTable.rounds(46.86, new BigDecimal("46.9"))).isTrue();
        assertThat(ReadmeScenarioTable.rounds(46.96, new BigDecimal("46.9"))).isFalse();
        assertThat(ReadmeScenarioTable.rounds(-21.4, new BigDecimal("-21"))).isTrue();
        assertThat(ReadmeScenarioTable.rounds(-21.6, new BigDecimal("-21"))).isFalse();
        assertThat(ReadmeScenarioTable.rounds(52_558, new BigDecimal("52717"))).isFalse();
        assertThat(ReadmeScenarioTable.rounds(0.00004, new BigDecimal("0.003"))).isFalse();
    }

    @Test
    void theReadmeHasTheScenarioTableWithAFigureInEveryRow() {
        assertThat(ReadmeScenarioTable.rows()).hasSizeGreaterThanOrEqualTo(11)
                .allSatisfy((name, cell) -> assertThat(ReadmeScenarioTable.figures(cell)).as(name).isNotEmpty());
    }
}
