package dev.schedsim.reports;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.json.Json;
import dev.schedsim.result.ResultDocument;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * From a throttled cgroup in the report to what to set: the body of a {@code POST /api/v1/advice} that sizes its
 * cpu.max for the workload running in it, from this simulation's own request (its variants and sweep left out, as
 * the advisor makes its own), for the throttled-10pct objective, searching quotas on the cgroup's period from
 * 1 ms to four times today's. Only a cgroup throttled in at least {@link #MIN_SHARE} of its periods, with a
 * workload of the request in it, gets one.
 */
final class AdviceLink {
    /** A cgroup throttled in fewer of its periods gets no advice body. */
    static final double MIN_SHARE = 0.01;

    /** A cgroup and the advice body that sizes it. */
    record Link(String cgroup, String body) {
    }

    private AdviceLink() {
    }

    /** The advice bodies for the variant's throttled cgroups ({@code limits} by path; a null name: "report"). */
    static List<Link> of(String name, JsonNode request, ResultDocument.Variant v,
                         java.util.Map<String, CgroupSpec> limits) {
        List<Link> out = new ArrayList<>();
        if (request.has("kubernetes") || v.cgroups() == null || limits == null) {
            return out;
        }
        for (ResultDocument.Cgroup c : v.cgroups()) {
            ResultDocument.CpuStat s = c.cpuStat();
            CgroupSpec limit = limits.get(c.path());
            double periods = s.nrPeriods() == null ? 0 : s.nrPeriods();
            double throttled = s.nrThrottled() == null ? 0 : s.nrThrottled();
            String workload = workloadIn(request, c.path());
            if (limit == null || limit.quotaUs() <= 0 || periods == 0 || throttled / periods < MIN_SHARE
                    || workload == null) {
                continue;
            }
            out.add(new Link(c.path(), body(name, request, c.path(), workload, limit)));
        }
        return out;
    }

    /** The links in a Markdown report: a line and the body as a JSON block each. */
    static String markdown(List<Link> links) {
        StringBuilder b = new StringBuilder();
        for (Link a : links) {
            b.append("\nWhat to set for ").append(a.cgroup()).append(": `POST /api/v1/advice` with\n\n```json\n")
                    .append(a.body()).append("\n```\n");
        }
        return b.toString();
    }

    /** The links in an HTML report. */
    static String html(List<Link> links) {
        StringBuilder b = new StringBuilder();
        for (Link a : links) {
            b.append("<p>What to set for ").append(Svg.esc(a.cgroup()))
                    .append(": <code>POST /api/v1/advice</code> with (Swagger UI: <a href=\"/swagger-ui.html\">")
                    .append("/swagger-ui.html</a>), or <a class=\"advisor\" href=\"/advisor#request=")
                    .append(Svg.esc(fragment(a.body()))).append("\">ask it on /advisor</a></p>\n<pre class=\"advice\">")
                    .append(Svg.esc(a.body())).append("</pre>\n");
        }
        return b.toString();
    }

    /** The body as /advisor reads it from its address (decodeURIComponent: a space is %20, not +). */
    private static String fragment(String body) {
        return java.net.URLEncoder.encode(body, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String workloadIn(JsonNode request, String path) {
        for (JsonNode w : request.path("workloads")) {
            if (w.path("cgroup").asString("/").equals(path)) {
                return w.path("name").asString();
            }
        }
        return null;
    }

    private static String body(String name, JsonNode request, String path, String workload, CgroupSpec limit) {
        ObjectNode req = (ObjectNode) request.deepCopy();
        for (String field : List.of("variants", "sweep", "trace", "repetitions", "name")) {
            req.remove(field);
        }
        ObjectNode b = Json.STORED.createObjectNode();
        b.put("name", (name == null ? "report" : name) + "-" + path.replaceAll("[^A-Za-z0-9]+", "-")
                .replaceAll("^-|-$", "") + "-limit");
        b.set("request", req);
        b.put("cgroup", path);
        b.put("workload", workload);
        b.putObject("objective").put("preset", "throttled-10pct");
        ObjectNode search = b.putObject("search");
        search.putObject("quotaUs").put("min", CgroupSpec.MIN_QUOTA_PERIOD_US).put("max",
                Math.max(CgroupSpec.MIN_QUOTA_PERIOD_US * 2, 4 * limit.quotaUs()));
        search.putArray("periodsUs").add(limit.periodUs());
        return Json.STORED.writerWithDefaultPrettyPrinter().writeValueAsString(b);
    }
}
