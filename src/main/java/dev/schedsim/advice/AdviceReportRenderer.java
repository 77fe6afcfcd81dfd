package dev.schedsim.advice;

import dev.schedsim.json.Json;
import dev.schedsim.reports.ReportRenderer;
import dev.schedsim.reports.Svg;
import dev.schedsim.reports.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * An advice for people: the answer in a sentence, the recommended, current and bracketing settings with their
 * figures, the trade-off (each figure of the objective against the limit in CPUs, one line per period and burst, the
 * objective dashed), and every candidate. From the stored request and answer only, so the same answer always gives
 * the same bytes.
 */
final class AdviceReportRenderer {

    private final String id;
    private final JsonNode spec;
    private final AdviceAnswer answer;

    AdviceReportRenderer(String id, String specJson, String answerJson) {
        this.id = id;
        this.spec = Json.STORED.readTree(specJson);
        this.answer = Json.STORED.readValue(answerJson, AdviceAnswer.class);
    }

    private String title() {
        return "SchedSim advice: " + (spec.path("name").isString() ? spec.path("name").asString() : id);
    }

    private List<String[]> question() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"advice", id});
        rows.add(new String[] {"cgroup", spec.path("cgroup").asString()});
        if (spec.path("workload").isString()) {
            rows.add(new String[] {"workload", spec.path("workload").asString()});
        }
        rows.add(new String[] {"objective", ReportRenderer.words(spec.path("objective")) + ", in every repetition"});
        rows.add(new String[] {"search", ReportRenderer.words(spec.path("search"))});
        rows.add(new String[] {"repetitions", spec.path("repetitions").asString()});
        rows.add(new String[] {"machine", ReportRenderer.words(spec.path("request").path("topology"))});
        rows.add(new String[] {"simulated time", spec.path("request").path("durationMs").asString() + " ms per run"});
        return rows;
    }

    private static List<String> head() {
        return List.of("setting", "cpu.max", "cpu.max.burst", "met", "throttled periods", "wakeup p99 µs",
                "request p99 µs", "completion");
    }

    private static List<String> row(String what, AdviceAnswer.Candidate c) {
        return List.of(what, c.cpuMax(), Long.toString(c.cpuMaxBurst()), c.met() ? "yes" : "no",
                c.throttledPeriodsPct() == null ? "-" : Units.pct(c.throttledPeriodsPct() / 100),
                c.p99WakeupLatencyUs() == null ? "-" : Units.us(c.p99WakeupLatencyUs()),
                c.p99RequestLatencyUs() == null ? "-" : Units.us(c.p99RequestLatencyUs()),
                c.completionUs() == null ? "-" : Units.ms(c.completionUs()));
    }

    private List<List<String>> answerTable() {
        List<List<String>> rows = new ArrayList<>();
        rows.add(head());
        if (answer.recommendation() != null) {
            rows.add(row("recommended (limits.cpu " + answer.recommendation().limitsCpu() + ")",
                    answer.recommendation().predicted()));
        }
        if (answer.bracket() != null) {
            rows.add(row("bracket (the largest failing quota below)", answer.bracket()));
        }
        if (answer.current() != null) {
            rows.add(row("current (the request's own)", answer.current()));
        }
        return rows;
    }

    private List<List<String>> candidateTable() {
        List<List<String>> rows = new ArrayList<>();
        rows.add(head());
        for (AdviceAnswer.Candidate c : answer.candidates()) {
            rows.add(row("tried", c));
        }
        return rows;
    }

    /** One chart per figure of the objective: the figure against the limit (quota / period, CPUs), a line per period and burst. */
    private List<String> plots() {
        List<String> out = new ArrayList<>();
        JsonNode o = spec.path("objective");
        if (o.path("maxThrottledPeriodsPct").isNumber()) {
            out.add(plot("Throttled periods against the limit", "throttled periods (%)",
                    c -> c.throttledPeriodsPct(), o.path("maxThrottledPeriodsPct").asDouble()));
        }
        if (o.path("maxP99WakeupLatencyUs").isNumber()) {
            out.add(plot("Wakeup latency p99 against the limit", "wakeup p99 (µs)", c -> c.p99WakeupLatencyUs(),
                    o.path("maxP99WakeupLatencyUs").asDouble()));
        }
        if (o.path("maxP99RequestLatencyUs").isNumber()) {
            out.add(plot("Request latency p99 against the limit", "request p99 (µs)", c -> c.p99RequestLatencyUs(),
                    o.path("maxP99RequestLatencyUs").asDouble()));
        }
        if (o.path("maxCompletionUs").isNumber()) {
            out.add(plot("Completion against the limit", "completion (ms)",
                    c -> c.completionUs() == null ? null : c.completionUs() / 1000,
                    o.path("maxCompletionUs").asDouble() / 1000));
        }
        return out;
    }

    private String plot(String title, String yLabel, java.util.function.Function<AdviceAnswer.Candidate, Double> f,
                        double limit) {
        Map<String, List<double[]>> lines = new LinkedHashMap<>();
        for (AdviceAnswer.Candidate c : answer.candidates()) {
            Double y = f.apply(c);
            if (y == null) {
                continue;
            }
            String[] q = c.cpuMax().split(" ");
            String line = "period " + Units.ms(Long.parseLong(q[1])) + (c.cpuMaxBurst() > 0 ? ", burst "
                    + Units.ms(c.cpuMaxBurst()) : "");
            lines.computeIfAbsent(line, k -> new ArrayList<>())
                    .add(new double[] {(double) Long.parseLong(q[0]) / Long.parseLong(q[1]), y});
        }
        List<Svg.XySeries> series = new ArrayList<>();
        lines.forEach((k, v) -> series.add(new Svg.XySeries(k, v))); // (candidates come sorted by quota)
        // x in CPUs (quota / period), so that the periods' lines compare at the same limit
        return Svg.xy(title, "limit (CPUs: quota / period)", yLabel, series, limit);
    }

    String markdown() {
        StringBuilder b = new StringBuilder("# ").append(title()).append("\n\n").append(answer.summary())
                .append("\n\n## The question\n\n| | |\n|---|---|\n");
        for (String[] r : question()) {
            b.append("| ").append(r[0]).append(" | ").append(r[1].replace("|", "\\|")).append(" |\n");
        }
        b.append("\n## The answer\n\n").append(ReportRenderer.mdTable(answerTable()))
                .append(AdviceApplyReport.markdown(answer));
        b.append("\n## Every setting tried (").append(answer.steps()).append(" steps")
                .append(answer.monotone() ? "" : "; not monotone in the quota").append(")\n\n")
                .append(ReportRenderer.mdTable(candidateTable()));
        b.append("\nThe HTML version of this report (Accept: text/html) plots each figure against the limit.\n");
        return b.toString();
    }

    String html() {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(Svg.esc(title()))
                .append("</title>\n<style>\n").append(ReportRenderer.STYLE).append("</style></head><body>\n<h1>").append(Svg.esc(title()))
                .append("</h1>\n<p><b>").append(Svg.esc(answer.summary())).append("</b></p>\n<h2>The question</h2>\n")
                .append("<table class=\"kv\">\n");
        for (String[] r : question()) {
            b.append("<tr><td>").append(Svg.esc(r[0])).append("</td><td>").append(Svg.esc(r[1])).append("</td></tr>\n");
        }
        b.append("</table>\n<h2>The answer</h2>\n").append(ReportRenderer.htmlTable(answerTable(), true))
                .append(AdviceApplyReport.html(answer)).append("<h2>The trade-off</h2>\n")
                .append("<p>Each figure of the objective (worst over the repetitions) against the limit; the "
                        + "objective dashed.</p>\n");
        for (String svg : plots()) {
            b.append(svg).append('\n');
        }
        b.append("<h2>Every setting tried (").append(answer.steps()).append(" steps")
                .append(answer.monotone() ? "" : "; not monotone in the quota").append(")</h2>\n")
                .append(ReportRenderer.htmlTable(candidateTable(), true)).append("</body></html>\n");
        return b.toString();
    }
}
