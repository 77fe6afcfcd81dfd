package dev.schedsim.reports;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.json.Json;
import dev.schedsim.result.ResultDocument;
import dev.schedsim.result.ResultJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Renders a finished simulation as Markdown or HTML from its stored request and result only (no clock, no ids
 * beyond the simulation's own), so the same result always gives the same bytes.
 */
public final class ReportRenderer {
    private static final String SPARK = "▁▂▃▄▅▆▇█";

    private final String id;
    private final String name;
    private final JsonNode request;
    private final ResultDocument result;
    private final List<ResultDocument.Variant> variants;
    /** Each variant's cgroups as its run had them (overrides and sweep applied), by label and path. */
    private final Map<String, Map<String, CgroupSpec>> limits;
    private final KernelComparison comparison;

    /** Per cgroup path, the Kubernetes names of a pod's cgroups (namespace, pod, container), from the plan. */
    private final Map<String, Map<String, String>> kubernetesNames;

    ReportRenderer(String id, String name, String requestJson, String resultJson,
                   Map<String, Map<String, CgroupSpec>> limits) {
        this(id, name, requestJson, resultJson, limits, Map.of());
    }

    /**
     * @param limits          each variant's cgroups by label and path, from the request's plan; a variant or cgroup
     *                        missing from it gets its verdict without the quota's figures
     * @param kubernetesNames the plan's cAdvisor labels by cgroup path: a pod's cgroups are named as Kubernetes
     *                        names them
     */
    ReportRenderer(String id, String name, String requestJson, String resultJson,
                   Map<String, Map<String, CgroupSpec>> limits, Map<String, Map<String, String>> kubernetesNames) {
        this.kubernetesNames = kubernetesNames;
        this.id = id;
        this.name = name;
        this.request = Json.STORED.readTree(requestJson);
        this.result = ResultJson.read(resultJson);
        this.variants = result.variants() == null ? List.of() : result.variants();
        this.limits = limits;
        this.comparison = new KernelComparison(variants, list(result.comparison()));
    }

    private String title() {
        return "SchedSim report: " + (name != null ? name : id);
    }

    // ---------------------------------------------------------------- request summary

    private List<String[]> summary() {
        List<String[]> rows = new ArrayList<>();
        JsonNode t = request.path("topology");
        rows.add(new String[] {"simulation", id});
        rows.add(new String[] {"machine", t.has("preset") ? t.path("preset").asString() : words(t)});
        JsonNode k = request.path("kernel");
        rows.add(new String[] {"kernel", "profile " + k.path("profile").asString() + ", HZ " + k.path("hz").asString()
                + (k.path("features").isEmpty() ? "" : ", features " + words(k.path("features")))});
        rows.add(new String[] {"simulated time", request.path("durationMs").asString() + " ms"});
        rows.add(new String[] {"seed, repetitions", request.path("seed").asString() + ", "
                + request.path("repetitions").asString()});
        for (JsonNode c : request.path("cgroups")) {
            StringBuilder b = new StringBuilder();
            b.append("cpu.max ").append(c.path("cpuMax").asString("max"));
            if (c.path("cpuMaxBurst").asLong(0) > 0) {
                b.append(", cpu.max.burst ").append(c.path("cpuMaxBurst").asString());
            }
            b.append(", cpu.weight ").append(c.path("cpuWeight").asString("100"));
            rows.add(new String[] {"cgroup " + c.path("path").asString(), b.toString()});
        }
        for (JsonNode w : request.path("workloads")) {
            Map<String, String> f = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : w.properties()) {
                if (!e.getKey().equals("name") && !e.getKey().equals("type") && !e.getValue().isNull()
                        && !e.getValue().isObject() && !e.getValue().isArray()) {
                    f.put(e.getKey(), e.getValue().asString());
                }
            }
            rows.add(new String[] {"workload " + w.path("name").asString(), w.path("type").asString() + " "
                    + f.toString().replace("{", "(").replace("}", ")")});
        }
        for (JsonNode v : request.path("variants")) {
            List<String> what = new ArrayList<>();
            if (!v.path("kernel").isEmpty()) {
                what.add("kernel " + words(v.path("kernel")));
            }
            for (JsonNode c : v.path("cgroups")) {
                what.add("cgroup " + c.path("path").asString() + " " + words(without(c, "path")));
            }
            for (JsonNode w : v.path("workloads")) {
                what.add("workload " + w.path("name").asString() + " " + words(without(w, "name")));
            }
            rows.add(new String[] {"variant " + v.path("label").asString(),
                what.isEmpty() ? "as the request" : String.join("; ", what)});
        }
        if (request.has("sweep")) {
            rows.add(new String[] {"sweep", words(request.path("sweep"))});
        }
        return rows;
    }

    /**
     * A JSON value as words: an object's fields as "name value" joined by commas, nested objects in
     * parentheses, arrays as "a, b" in brackets: {@code {"profile":"6.6","features":{"DELAY_DEQUEUE":false}}} reads
     * "profile 6.6, features (DELAY_DEQUEUE false)".
     */
    public static String words(JsonNode n) {
        if (n.isObject()) {
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if (!e.getValue().isNull()) {
                    JsonNode x = e.getValue();
                    parts.add(e.getKey() + " " + (x.isObject() ? "(" + words(x) + ")" : words(x)));
                }
            }
            return String.join(", ", parts);
        }
        if (n.isArray()) {
            List<String> parts = new ArrayList<>();
            n.forEach(x -> parts.add(x.isObject() ? "(" + words(x) + ")" : words(x)));
            return "[" + String.join(", ", parts) + "]";
        }
        return n.asString();
    }

    private static JsonNode without(JsonNode object, String field) {
        tools.jackson.databind.node.ObjectNode copy = (tools.jackson.databind.node.ObjectNode) object.deepCopy();
        copy.remove(field);
        return copy;
    }

    /** "Seeds [42], 2 000 ms simulated." */
    private static String variantLine(ResultDocument.Variant v) {
        return (list(v.seeds()).size() == 1 ? "Seed " : "Seeds ") + seeds(v) + ", " + Units.ms(d(v.simulatedUs()))
                + " simulated.";
    }

    // ---------------------------------------------------------------- per-variant tables

    /** The advice bodies for the baseline's throttled cgroups (the first variant only: one place to start from). */
    private List<AdviceLink.Link> adviceLinks(ResultDocument.Variant v) {
        return v != variants.get(0) ? List.of() : AdviceLink.of(name, request, v, limits.get(v.label()));
    }

    /** One sentence per cgroup: what limited it, in the words of a pod's limits. */
    private List<String> verdicts(ResultDocument.Variant v) {
        return CgroupVerdict.verdicts(v, limits.get(v.label()), kubernetesNames);
    }

    /** The cgroups in a reader's units. */
    private List<List<String>> cgroupTable(ResultDocument.Variant v) {
        return CgroupVerdict.table(v, limits.get(v.label()));
    }

    /** cpu.stat as the kernel writes it (µs), for reading side by side with a real machine's. */
    private List<List<String>> cpuStatTable(ResultDocument.Variant v) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("cpu.stat", "usage_usec", "nr_periods", "nr_throttled", "throttled_usec", "nr_bursts",
                "burst_usec"));
        for (ResultDocument.Cgroup c : list(v.cgroups())) {
            ResultDocument.CpuStat s = c.cpuStat();
            rows.add(List.of(c.path(), g(s.usageUsec()), g(s.nrPeriods()), g(s.nrThrottled()),
                    g(s.throttledUsec()), g(s.nrBursts()), g(s.burstUsec())));
        }
        return rows;
    }

    private List<List<String>> workloadTable(ResultDocument.Variant v) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("workload", "CPU time", "completion", "throughput", "wakeup p50 µs", "p90 µs", "p99 µs",
                "max µs", "request p99 µs", "migrations"));
        for (ResultDocument.Workload w : list(v.workloads())) {
            ResultDocument.Latency l = w.wakeupLatencyUs();
            ResultDocument.Latency req = w.requestLatencyUs();
            rows.add(List.of(w.name(), w.cpuUsec() == null ? Units.NONE : Units.ms(w.cpuUsec()),
                    w.completionUs() == null ? Units.NONE : Units.ms(w.completionUs()), throughput(w),
                    us(l == null ? null : l.p50()), us(l == null ? null : l.p90()), us(l == null ? null : l.p99()),
                    us(l == null ? null : l.max()), req != null ? us(req.p99()) : Units.NONE, g(w.migrations())));
        }
        return rows;
    }

    /** The throughput in the unit the workload's type counts (Report.WorkloadReport#throughputPerSec). */
    private String throughput(ResultDocument.Workload w) {
        if (w.throughputPerSec() == null) {
            return Units.NONE;
        }
        String type = "";
        for (JsonNode x : request.path("workloads")) {
            if (x.path("name").asString().equals(w.name())) {
                type = x.path("type").asString();
            }
        }
        String unit = switch (type) {
            case "cpu-bound" -> " CPU-s/s";
            case "periodic" -> " cycles/s";
            case "request-response" -> " transactions/s";
            case "hackbench" -> " messages/s";
            case "schbench" -> " requests/s";
            case "trace" -> " segments/s";
            case "phases" -> " iterations/s";
            default -> " /s";
        };
        return Units.grouped(w.throughputPerSec()) + unit;
    }

    private List<List<String>> machineTable(ResultDocument.Variant v) {
        ResultDocument.Cpus c = v.cpus();
        ResultDocument.Scheduler s = v.scheduler();
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("busy %", "idle %", "power W", "context switches", "migrations", "at wakeup",
                "load balances", "newidle balances", "newidle pulls", "sched overhead %", "serialize CAS",
                "serialize %"));
        rows.add(List.of(n(c.busyPct()), n(c.idlePct()), n(c.avgPowerWatts()), g(s.contextSwitches()),
                g(s.migrations()), g(s.wakeupMigrations()), g(s.loadBalances()), g(s.newidleBalances()),
                g(s.newidlePulls()), n(s.overheadPct()), g(s.serializeAttempts()), n(s.serializePct())));
        return rows;
    }

    private List<List<String>> costTable(ResultDocument.Variant v) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("level", "min us", "avg us", "max us", "samples"));
        for (ResultDocument.LevelCost c : costs(v)) {
            rows.add(List.of(c.level(), n(c.min()), n(c.avg()), n(c.max()), n(c.samples())));
        }
        return rows;
    }

    /** A number as the tables print it; "–" when there is none. */
    private static String n(Double x) {
        return x == null ? Units.NONE : Svg.num(x);
    }

    /** A number grouped in threes; "–" when there is none. */
    private static String g(Double x) {
        return x == null ? Units.NONE : Units.grouped(x);
    }

    /** A latency in µs as the tables print it; "–" when there is none. */
    private static String us(Double x) {
        return x == null ? Units.NONE : Units.us(x);
    }

    /** A number read as a JSON reader would: 0 when there is none. */
    private static double d(Double x) {
        return x == null ? 0 : x;
    }

    private static <T> List<T> list(List<T> xs) {
        return xs == null ? List.of() : xs;
    }

    private static List<ResultDocument.LevelCost> costs(ResultDocument.Variant v) {
        return v.scheduler() == null ? List.of() : list(v.scheduler().newidleCostUs());
    }

    /** The seeds as the document writes them, e.g. {@code [7,8,9]}. */
    private static String seeds(ResultDocument.Variant v) {
        StringBuilder b = new StringBuilder("[");
        for (Long s : list(v.seeds())) {
            b.append(b.length() > 1 ? "," : "").append(s);
        }
        return b.append(']').toString();
    }

    // ---------------------------------------------------------------- plots

    private List<Svg.Series> throttled(ResultDocument.Variant v) {
        List<Svg.Series> out = new ArrayList<>();
        if (v.timeSeries() == null) {
            return out;
        }
        for (ResultDocument.CgroupSeries c : list(v.timeSeries().cgroups())) {
            if (!limited(c.path())) {
                continue;
            }
            List<Double> ms = new ArrayList<>();
            for (Long x : list(c.throttledUs())) {
                ms.add(x / 1000.0);
            }
            out.add(new Svg.Series(c.path(), ms));
        }
        return out;
    }

    /** A cgroup with a quota of its own (the ones that can be throttled). */
    private boolean limited(String path) {
        for (JsonNode c : request.path("cgroups")) {
            if (c.path("path").asString().equals(path)) {
                String max = c.path("cpuMax").asString("max");
                return !max.startsWith("max");
            }
        }
        return false;
    }

    private List<Double> busy(ResultDocument.Variant v) {
        List<Double> out = new ArrayList<>();
        if (v.timeSeries() != null) {
            list(v.timeSeries().busyCpus()).forEach(x -> out.add(d(x)));
        }
        return out;
    }

    private double maxThrottledMs() {
        double m = 0;
        for (ResultDocument.Variant v : variants) {
            for (Svg.Series s : throttled(v)) {
                for (double d : s.values()) {
                    m = Math.max(m, d);
                }
            }
        }
        return m;
    }

    private double maxBusy() {
        double m = 0;
        for (ResultDocument.Variant v : variants) {
            for (double d : busy(v)) {
                m = Math.max(m, d);
            }
        }
        return m;
    }

    private List<String> plots(ResultDocument.Variant v) {
        List<String> out = new ArrayList<>();
        ResultDocument.TimeSeries ts = v.timeSeries();
        if (ts == null) {
            return out;
        }
        long bucket = ts.bucketUs();
        String label = v.label();
        out.add(Svg.chart("CPU occupancy, " + label, "busy CPUs", bucket,
                List.of(new Svg.Series("busy CPUs", busy(v))), maxBusy()));
        List<Svg.Series> thr = throttled(v);
        if (!thr.isEmpty()) {
            out.add(Svg.chart("Throttled time per " + Units.ms(bucket) + ", " + label,
                    "throttled ms (summed over CPUs)", bucket, thr, maxThrottledMs()));
        }
        return out;
    }

    static String sparkline(List<Double> values, double max) {
        StringBuilder b = new StringBuilder();
        for (double d : values) {
            int i = max <= 0 ? 0 : (int) Math.round(d / max * (SPARK.length() - 1));
            b.append(SPARK.charAt(Math.max(0, Math.min(SPARK.length() - 1, i))));
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- Markdown

    String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(title()).append("\n\n## Request\n\n");
        b.append(mdTable(prepend(List.of("", ""), summary())));
        if (variants.size() > 1) {
            b.append("\n## Comparison\n\n").append(comparison.legend()).append("\n\n");
            b.append("```\n").append(comparison.text()).append("```\n\nMeans:\n\n").append(mdTable(comparison.means()));
        }
        for (ResultDocument.Variant v : variants) {
            b.append("\n## Variant ").append(v.label()).append("\n\n");
            b.append(variantLine(v)).append("\n\n");
            for (String verdict : verdicts(v)) {
                b.append("- ").append(verdict).append('\n');
            }
            b.append(AdviceLink.markdown(adviceLinks(v)));
            b.append('\n').append(mdTable(cgroupTable(v))).append('\n').append(mdTable(cpuStatTable(v))).append('\n')
                    .append(mdTable(workloadTable(v))).append('\n').append(mdTable(machineTable(v)));
            if (!costs(v).isEmpty()) {
                b.append("\nmax_newidle_lb_cost per domain level:\n\n").append(mdTable(costTable(v)));
            }
            if (v.timeSeries() != null) {
                b.append("\nBusy CPUs over time (first repetition, ").append(Units.ms(v.timeSeries().bucketUs()))
                        .append(" buckets, 0 to ").append(Svg.num(maxBusy())).append("): `")
                        .append(sparkline(busy(v), maxBusy())).append("`\n");
                for (Svg.Series s : throttled(v)) {
                    b.append("\nThrottled time of ").append(s.label()).append(" over time (0 to ")
                            .append(Svg.num(maxThrottledMs())).append(" ms per bucket): `")
                            .append(sparkline(s.values(), maxThrottledMs())).append("`\n");
                }
            }
        }
        b.append("\nThe HTML version of this report (Accept: text/html) draws these series as plots.\n");
        return b.toString();
    }

    private static List<List<String>> prepend(List<String> head, List<String[]> rows) {
        List<List<String>> out = new ArrayList<>();
        out.add(head);
        for (String[] r : rows) {
            out.add(List.of(r));
        }
        return out;
    }

    public static String mdTable(List<List<String>> rows) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            b.append("| ");
            for (String c : rows.get(i)) {
                b.append(c.replace("|", "\\|")).append(" | ");
            }
            b.setLength(b.length() - 1);
            b.append('\n');
            if (i == 0) {
                b.append("|");
                b.append("---|".repeat(rows.get(0).size()));
                b.append('\n');
            }
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- HTML

    /** The report pages' style sheet (this one's and the advisor's). */
    public static final String STYLE = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
            + "table{border-collapse:collapse;margin:8px 0 16px}"
            + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;font-size:13px}"
            + "th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}"
            + "pre{background:#f7f7f7;padding:10px;border:1px solid #ddd;font-size:13px;overflow-x:auto}"
            + ".kv td{text-align:left}h2{border-bottom:1px solid #ddd;padding-bottom:4px}svg{display:block;margin:8px 0}\n";

    String html() {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(Svg.esc(title())).append("</title>\n<style>\n").append(STYLE)
                .append("</style></head><body>\n<h1>").append(Svg.esc(title())).append("</h1>\n<h2>Request</h2>\n");
        b.append(htmlTable(prepend(List.of("", ""), summary()), false));
        if (variants.size() > 1) {
            b.append("<h2>Comparison</h2>\n<p>").append(Svg.esc(comparison.legend())).append("</p>\n<pre>")
                    .append(Svg.esc(comparison.text())).append("</pre>\n<p>Means:</p>\n")
                    .append(htmlTable(comparison.means(), true));
        }
        b.append("<h2>Plots</h2>\n<p>First repetition of each variant; the variants' plots share their y scale.</p>\n");
        for (ResultDocument.Variant v : variants) {
            for (String svg : plots(v)) {
                b.append(svg).append('\n');
            }
        }
        for (ResultDocument.Variant v : variants) {
            b.append("<h2>Variant ").append(Svg.esc(v.label())).append("</h2>\n<p>")
                    .append(Svg.esc(variantLine(v))).append("</p>\n<ul>\n");
            for (String verdict : verdicts(v)) {
                b.append("<li>").append(Svg.esc(verdict)).append("</li>\n");
            }
            b.append("</ul>\n").append(AdviceLink.html(adviceLinks(v))).append(htmlTable(cgroupTable(v), true))
                    .append(htmlTable(cpuStatTable(v), true)).append(htmlTable(workloadTable(v), true))
                    .append(htmlTable(machineTable(v), true));
            if (!costs(v).isEmpty()) {
                b.append("<p>max_newidle_lb_cost per domain level:</p>\n").append(htmlTable(costTable(v), true));
            }
        }
        b.append("</body></html>\n");
        return b.toString();
    }

    public static String htmlTable(List<List<String>> rows, boolean header) {
        StringBuilder b = new StringBuilder(header ? "<table>\n" : "<table class=\"kv\">\n");
        for (int i = 0; i < rows.size(); i++) {
            boolean th = header && i == 0;
            if (!header && i == 0) {
                continue;
            }
            b.append("<tr>");
            for (String c : rows.get(i)) {
                b.append(th ? "<th>" : "<td>").append(Svg.esc(c)).append(th ? "</th>" : "</td>");
            }
            b.append("</tr>\n");
        }
        return b.append("</table>\n").toString();
    }
}
