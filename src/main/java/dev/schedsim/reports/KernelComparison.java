package dev.schedsim.reports;

import dev.schedsim.result.ResultDocument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparison of a report's variants as kernel patch postings print it: per metric, each variant's mean relative
 * to the baseline's, [the improvement in %](the standard deviation over repetitions, only when there were several),
 * in aligned columns; and the means themselves.
 */
final class KernelComparison {
    private final List<ResultDocument.Variant> variants;
    private final List<ResultDocument.ComparisonRow> rows;
    /** Whether any variant ran more than once: only then has a cell a standard deviation to show. */
    private final boolean repeated;

    KernelComparison(List<ResultDocument.Variant> variants, List<ResultDocument.ComparisonRow> rows) {
        this.variants = variants;
        this.rows = rows;
        this.repeated = variants.stream().anyMatch(v -> v.repetitions() > 1);
    }

    /** One metric with a {@code [ratio, pct, std]} cell per variant (the baseline first). */
    private record Line(String metric, List<String> cells) {
    }

    private List<Line> lines() {
        Map<String, Line> lines = new LinkedHashMap<>();
        for (ResultDocument.ComparisonRow row : rows) {
            String metric = row.metric();
            Line line = lines.get(metric);
            if (line == null) {
                line = new Line(metric, new ArrayList<>());
                line.cells().add(repeated ? cell(1.0, 0.0, row.baselineStdPct()) : cell(1.0, 0.0));
                lines.put(metric, line);
            }
            double base = num(row.baselineMean());
            double mean = num(row.variantMean());
            Double ratio = base == 0 ? (mean == 0 ? 1.0 : null) : mean / base;
            line.cells().add(repeated ? cell(ratio, row.pctImprovement(), row.variantStdPct())
                    : cell(ratio, row.pctImprovement()));
        }
        return new ArrayList<>(lines.values());
    }

    /** {@code 1.00 [ 0.00]( 4.78)}, {@code 0.99 [ +1.00]( 6.45)}: as seed 002's tables print them. */
    static String cell(Double ratio, Double pct, Double std) {
        String s = std != null ? String.format(Locale.ROOT, "%5.2f", std) : "  n/a";
        return cell(ratio, pct) + "(" + s + ")";
    }

    /** {@code 0.99 [ +1.00]}: the cell without a standard deviation, for runs that were not repeated. */
    static String cell(Double ratio, Double pct) {
        String r = ratio == null ? " n/a" : String.format(Locale.ROOT, "%.2f", ratio);
        String p;
        if (pct == null) {
            p = "   n/a";
        } else if (Math.abs(pct) < 0.005) {
            p = "  0.00";
        } else {
            p = String.format(Locale.ROOT, "%+6.2f", pct);
        }
        return r + " [" + p + "]";
    }

    /** What a cell of the comparison says, with the standard deviation only where runs were repeated. */
    String legend() {
        return "Baseline: " + variants.get(0).label() + ". Each cell is a variant's mean relative to the baseline's "
                + "(1.00: the same), then [the improvement in %, positive is better"
                + (repeated ? "](the standard deviation over its repetitions, in % of its mean)"
                        : "] (one run each: no standard deviation; set repetitions to see the spread)")
                + ", as kernel patch postings print it. The means themselves follow.";
    }

    String text() {
        List<Line> lines = lines();
        List<String> header = new ArrayList<>();
        header.add("metric");
        for (int v = 0; v < variants.size(); v++) {
            header.add((v == 0 ? "baseline" : variants.get(v).label()) + (repeated ? "[pct imp](std%)" : "[pct imp]"));
        }
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = header.get(i).length();
        }
        for (Line l : lines) {
            width[0] = Math.max(width[0], l.metric().length());
            for (int i = 0; i < l.cells().size(); i++) {
                width[i + 1] = Math.max(width[i + 1], l.cells().get(i).length());
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(pad(header, width)).append('\n');
        for (Line l : lines) {
            List<String> row = new ArrayList<>();
            row.add(l.metric());
            row.addAll(l.cells());
            b.append(pad(row, width)).append('\n');
        }
        return b.toString();
    }

    private static String pad(List<String> cols, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cols.size(); i++) {
            String c = cols.get(i);
            b.append(c).append(" ".repeat(Math.max(0, width[i] - c.length()))).append(i + 1 < cols.size() ? "  " : "");
        }
        return b.toString().stripTrailing();
    }

    List<List<String>> means() {
        List<List<String>> table = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("metric"));
        for (ResultDocument.Variant v : variants) {
            head.add(v.label());
        }
        table.add(head);
        Map<String, List<String>> byMetric = new LinkedHashMap<>();
        for (ResultDocument.ComparisonRow row : rows) {
            List<String> r = byMetric.computeIfAbsent(row.metric(),
                    m -> new ArrayList<>(List.of(m, Units.grouped(num(row.baselineMean())))));
            r.add(Units.grouped(num(row.variantMean())));
        }
        table.addAll(byMetric.values());
        return table;
    }

    private static double num(Double x) {
        return x == null ? 0 : x;
    }
}
