package dev.schedsim.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's scenario table, read as a reader reads it: the figures of its "engine result (shipped size)"
 * column, in the order they appear, to the digits they are shown with. {@link #assertShows} holds a row's figures
 * against what the run produced: each must be the produced value rounded to the digits shown (within half a unit
 * of its last digit), so a figure that drifts fails and names the row, the figure and the new value.
 */
final class ReadmeScenarioTable {
    private static final Path README = Path.of("README.md");
    /** A figure: optional sign (− or +), digits grouped by spaces in threes, decimals; not part of a word (p99). */
    private static final Pattern FIGURE = Pattern.compile(
            "(?<![\\w.])([−+-]?)(\\d{1,3}(?: \\d{3})+|\\d+)(?:\\.(\\d+))?(?!\\w)");
    private static final Map<String, String> ROWS = rows();

    private ReadmeScenarioTable() {
    }

    /** Scenario name → its engine-result cell, in the README's order. */
    static Map<String, String> rows() {
        String readme;
        try {
            readme = Files.readString(README);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int from = readme.indexOf("| scenario | variants | engine result (shipped size) | published |");
        assertThat(from).as("the README's scenario table").isGreaterThanOrEqualTo(0);
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : readme.substring(from).split("\n")) {
            if (!line.startsWith("|")) {
                break;
            }
            String[] cells = line.split("\\|");
            if (cells.length >= 4 && cells[1].trim().startsWith("`")) {
                rows.put(cells[1].trim().replace("`", ""), cells[3].trim());
            }
        }
        return rows;
    }

    /** The figures a cell shows, in order. */
    static List<BigDecimal> figures(String cell) {
        List<BigDecimal> out = new ArrayList<>();
        Matcher m = FIGURE.matcher(cell);
        while (m.find()) {
            String sign = m.group(1).equals("+") ? "" : m.group(1).isEmpty() ? "" : "-";
            String decimals = m.group(3) == null ? "" : "." + m.group(3);
            out.add(new BigDecimal(sign + m.group(2).replace(" ", "") + decimals));
        }
        return out;
    }

    /**
     * Asserts that the row of {@code scenario} shows {@code produced}, one value per figure of its cell in order:
     * a number, a {@code double[]} when the one figure stands for several (“500 requests/s both”), or null for a
     * figure that is not the run's (the real kernel's, quoted beside it).
     */
    static void assertShows(String scenario, Object... produced) {
        String cell = ROWS.get(scenario);
        assertThat(cell).as("README scenario table row " + scenario).isNotNull();
        List<BigDecimal> shown = figures(cell);
        assertThat(shown).as("README " + scenario + ": the figures of \"" + cell + "\"").hasSize(produced.length);
        List<String> drifted = new ArrayList<>();
        for (int i = 0; i < produced.length; i++) {
            double[] values = produced[i] instanceof double[] d ? d
                    : produced[i] == null ? new double[0] : new double[] {((Number) produced[i]).doubleValue()};
            for (double v : values) {
                if (!rounds(v, shown.get(i))) {
                    drifted.add("figure " + (i + 1) + " shows " + shown.get(i) + ", the run gives " + v);
                }
            }
        }
        assertThat(drifted).as("README scenario table, " + scenario + " (\"" + cell + "\"), to the digits shown")
                .isEmpty();
    }

    /** Whether {@code value} rounded to the digits of {@code shown} is {@code shown}. */
    static boolean rounds(double value, BigDecimal shown) {
        double halfUnit = 0.5 * Math.pow(10, -shown.scale());
        return Math.abs(value - shown.doubleValue()) <= halfUnit * (1 + 1e-9);
    }
}
