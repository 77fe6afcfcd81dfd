package dev.schedsim.simulation;

import dev.schedsim.engine.Report;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the {@code result} document of api.md §2 from the engine reports.
 *
 * <p>Deterministic by construction: fields in a fixed order, nothing but report values (no ids, no wall-clock),
 * every fractional number rounded to 3 decimals half-even and written as an integer when integral. The same plan
 * and the same reports therefore give byte-identical JSON.
 *
 * <p>With {@code repetitions > 1} every number of a variant is the mean over its runs and {@code runs} lists the
 * runs one by one. A {@code completionUs} of a workload that did not finish (engine: -1) is {@code null}, and so
 * is its mean when any run did not finish.
 *
 * <p>{@code comparison} (two or more variants) takes the first variant as the baseline, as kernel patch postings
 * do; {@code pctImprovement} is positive when the variant is better (lower times, latencies, throttling and idle
 * share; higher throughput); the std columns are the sample standard deviation over repetitions as a percentage
 * of the mean. A row is left out when either side has no value; {@code pctImprovement} is null when the baseline
 * mean is 0 and the variant's is not.
 *
 * <p>Each variant also carries {@code timeSeries}, the first repetition's series (bucket size, busy CPUs per
 * bucket, per cgroup usage and throttled µs per bucket), from which the report page draws its plots.
 */
final class ResultDocument {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ResultDocument() {
    }

    /** @param reports per variant (plan order), the reports of its repetitions (seed order) */
    static String build(SimulationPlan plan, List<List<Report>> reports) {
        ObjectNode result = NODES.objectNode();
        ArrayNode variants = result.putArray("variants");
        for (int v = 0; v < plan.variants().size(); v++) {
            variants.add(variant(plan, plan.variants().get(v).label(), reports.get(v)));
        }
        if (plan.variants().size() > 1) {
            ArrayNode comparison = result.putArray("comparison");
            for (int v = 1; v < plan.variants().size(); v++) {
                compare(comparison, plan.variants().get(0).label(), reports.get(0),
                        plan.variants().get(v).label(), reports.get(v));
            }
        }
        return JSON.writeValueAsString(result);
    }

    private static ObjectNode variant(SimulationPlan plan, String label, List<Report> runs) {
        List<JsonNode> runNodes = new ArrayList<>();
        for (int r = 0; r < runs.size(); r++) {
            runNodes.add(run(plan.seed() + r, runs.get(r)));
        }
        ObjectNode mean = (ObjectNode) mean(runNodes);
        ObjectNode out = NODES.objectNode();
        out.put("label", label);
        out.put("repetitions", runs.size());
        ArrayNode seeds = out.putArray("seeds");
        for (int r = 0; r < runs.size(); r++) {
            seeds.add(plan.seed() + r);
        }
        for (Map.Entry<String, JsonNode> e : mean.properties()) {
            if (!"seed".equals(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        }
        if (runs.size() > 1) {
            ArrayNode list = out.putArray("runs");
            runNodes.forEach(list::add);
        }
        if (!runs.isEmpty() && runs.get(0).timeSeries() != null) {
            out.set("timeSeries", timeSeries(runs.get(0).timeSeries()));
        }
        return out;
    }

    /**
     * The first repetition's time series (engine {@link Report.TimeSeries}): kept in the document so that the
     * report page can draw its plots from the stored result alone.
     */
    private static ObjectNode timeSeries(Report.TimeSeries ts) {
        ObjectNode n = NODES.objectNode();
        n.put("bucketUs", ts.bucketUs());
        ArrayNode busy = n.putArray("busyCpus");
        for (Double d : ts.busyCpus()) {
            busy.add(num(d));
        }
        ArrayNode cgroups = n.putArray("cgroups");
        for (Report.CgroupSeries c : ts.cgroups()) {
            ObjectNode cn = cgroups.addObject();
            cn.put("path", c.path());
            ArrayNode usage = cn.putArray("usageUs");
            c.usageUs().forEach(usage::add);
            ArrayNode throttled = cn.putArray("throttledUs");
            c.throttledUs().forEach(throttled::add);
        }
        return n;
    }

    private static ObjectNode run(long seed, Report r) {
        ObjectNode n = NODES.objectNode();
        n.put("seed", seed);
        n.put("simulatedUs", r.simulatedUs());
        n.put("events", r.events());
        ArrayNode cgroups = n.putArray("cgroups");
        for (Report.CgroupReport c : r.cgroups()) {
            ObjectNode cg = cgroups.addObject();
            cg.put("path", c.path());
            ObjectNode st = cg.putObject("cpuStat");
            Report.CpuStat s = c.cpuStat();
            st.put("usageUsec", s.usageUsec());
            st.put("nrPeriods", s.nrPeriods());
            st.put("nrThrottled", s.nrThrottled());
            st.put("throttledUsec", s.throttledUsec());
            st.put("nrBursts", s.nrBursts());
            st.put("burstUsec", s.burstUsec());
        }
        ArrayNode workloads = n.putArray("workloads");
        for (Report.WorkloadReport w : r.workloads()) {
            ObjectNode wn = workloads.addObject();
            wn.put("name", w.name());
            wn.put("cpuUsec", w.cpuUsec());
            if (w.completionUs() < 0) {
                wn.putNull("completionUs");
            } else {
                wn.put("completionUs", w.completionUs());
            }
            wn.set("throughputPerSec", num(w.throughputPerSec()));
            latency(wn.putObject("wakeupLatencyUs"), w.wakeupLatencyUs());
            if (w.requestLatencyUs() != null) {
                latency(wn.putObject("requestLatencyUs"), w.requestLatencyUs());
            }
            wn.put("contextSwitches", w.contextSwitches());
            wn.put("migrations", w.migrations());
            wn.put("wakeups", w.wakeups());
        }
        ObjectNode cpus = n.putObject("cpus");
        Report.CpuReport c = r.cpus();
        cpus.set("busyPct", num(c.busyPct()));
        cpus.set("idlePct", num(c.idlePct()));
        cpus.set("overheadPct", num(c.overheadPct()));
        cpus.set("avgPowerWatts", num(c.avgPowerWatts()));
        ArrayNode per = cpus.putArray("perCpuBusyPct");
        if (c.perCpuBusyPct() != null) {
            for (double d : c.perCpuBusyPct()) {
                per.add(num(d));
            }
        }
        ObjectNode s = n.putObject("scheduler");
        Report.SchedulerReport sr = r.scheduler();
        s.put("contextSwitches", sr.contextSwitches());
        s.put("migrations", sr.migrations());
        s.put("wakeups", sr.wakeups());
        s.put("loadBalances", sr.loadBalances());
        s.put("newidleBalances", sr.newidleBalances());
        s.set("overheadPct", num(sr.overheadPct()));
        s.put("tasksMoved", sr.tasksMoved());
        s.put("activeBalances", sr.activeBalances());
        s.put("idleScans", sr.idleScans());
        s.put("cpusScanned", sr.cpusScanned());
        s.put("serializeAttempts", sr.serializeAttempts());
        s.set("serializePct", num(sr.serializePct()));
        ArrayNode costs = s.putArray("newidleCostUs");
        for (Report.LevelCost lc : sr.newidleCost()) {
            ObjectNode cn = costs.addObject();
            cn.put("level", lc.level());
            cn.set("min", num(lc.minUs()));
            cn.set("avg", num(lc.avgUs()));
            cn.set("max", num(lc.maxUs()));
            cn.put("samples", lc.samples());
        }
        return n;
    }

    /** The element-wise mean of structurally equal documents: numbers averaged, anything else from the first. */
    private static JsonNode mean(List<JsonNode> nodes) {
        JsonNode first = nodes.get(0);
        if (nodes.size() == 1) {
            return first;
        }
        if (first.isObject()) {
            ObjectNode out = NODES.objectNode();
            for (Map.Entry<String, JsonNode> e : first.properties()) {
                List<JsonNode> children = new ArrayList<>();
                for (JsonNode n : nodes) {
                    children.add(n.get(e.getKey()));
                }
                out.set(e.getKey(), mean(children));
            }
            return out;
        }
        if (first.isArray()) {
            ArrayNode out = NODES.arrayNode();
            for (int i = 0; i < first.size(); i++) {
                List<JsonNode> children = new ArrayList<>();
                for (JsonNode n : nodes) {
                    children.add(n.get(i));
                }
                out.add(mean(children));
            }
            return out;
        }
        if (first.isNumber()) {
            double sum = 0;
            for (JsonNode n : nodes) {
                if (n == null || !n.isNumber()) {
                    return NODES.nullNode();
                }
                sum += n.asDouble();
            }
            return num(sum / nodes.size());
        }
        for (JsonNode n : nodes) {
            if (n == null || n.isNull()) {
                return NODES.nullNode();
            }
        }
        return first;
    }

    /** Stable number formatting: 3 decimals half-even, integral values as integers, non-finite as null. */
    static JsonNode num(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return NODES.nullNode();
        }
        BigDecimal b = BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_EVEN);
        if (b.signum() == 0) {
            return NODES.numberNode(0L);
        }
        if (b.stripTrailingZeros().scale() <= 0 && b.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0) {
            return NODES.numberNode(b.longValue());
        }
        return NODES.numberNode(b.doubleValue());
    }

    private static void latency(ObjectNode lat, Report.Latency l) {
        lat.set("p50", num(l.p50()));
        lat.set("p90", num(l.p90()));
        lat.set("p99", num(l.p99()));
        lat.set("p999", num(l.p999()));
        lat.set("max", num(l.max()));
        lat.put("count", l.count());
    }

    private record Metric(String name, boolean higherIsBetter, Function<Report, Double> value) {
    }

    private static void compare(ArrayNode rows, String baseLabel, List<Report> base, String label,
                                List<Report> variant) {
        List<Metric> metrics = new ArrayList<>();
        Report first = base.get(0);
        for (int i = 0; i < first.workloads().size(); i++) {
            String w = first.workloads().get(i).name();
            metrics.add(new Metric("workloads." + w + ".completionUs", false, r -> {
                Report.WorkloadReport x = workload(r, w);
                return x == null || x.completionUs() < 0 ? null : (double) x.completionUs();
            }));
            metrics.add(new Metric("workloads." + w + ".wakeupLatencyUs.p99", false, r -> {
                Report.WorkloadReport x = workload(r, w);
                return x == null ? null : x.wakeupLatencyUs().p99();
            }));
            if (first.workloads().get(i).requestLatencyUs() != null) {
                metrics.add(new Metric("workloads." + w + ".requestLatencyUs.p99", false, r -> {
                    Report.WorkloadReport x = workload(r, w);
                    return x == null || x.requestLatencyUs() == null ? null : x.requestLatencyUs().p99();
                }));
            }
            metrics.add(new Metric("workloads." + w + ".throughputPerSec", true, r -> {
                Report.WorkloadReport x = workload(r, w);
                return x == null ? null : x.throughputPerSec();
            }));
        }
        for (Report.CgroupReport c : first.cgroups()) {
            String p = c.path();
            if ("/".equals(p)) {
                continue;
            }
            metrics.add(new Metric("cgroups." + p + ".nrThrottled", false, r -> {
                Report.CgroupReport x = cgroup(r, p);
                return x == null ? null : (double) x.cpuStat().nrThrottled();
            }));
            metrics.add(new Metric("cgroups." + p + ".throttledUsec", false, r -> {
                Report.CgroupReport x = cgroup(r, p);
                return x == null ? null : (double) x.cpuStat().throttledUsec();
            }));
        }
        metrics.add(new Metric("cpus.idlePct", false, r -> r.cpus().idlePct()));
        for (Metric m : metrics) {
            double[] b = values(base, m);
            double[] v = values(variant, m);
            if (b == null || v == null) {
                continue;
            }
            double bm = mean(b);
            double vm = mean(v);
            ObjectNode row = rows.addObject();
            row.put("metric", m.name());
            row.put("baseline", baseLabel);
            row.put("variant", label);
            row.set("baselineMean", num(bm));
            row.set("variantMean", num(vm));
            Double pct;
            if (bm == 0) {
                pct = vm == 0 ? 0.0 : null;
            } else {
                pct = (m.higherIsBetter() ? vm - bm : bm - vm) / Math.abs(bm) * 100;
            }
            row.set("pctImprovement", pct == null ? NODES.nullNode() : num(pct));
            row.set("baselineStdPct", stdPct(b, bm));
            row.set("variantStdPct", stdPct(v, vm));
        }
    }

    private static Report.WorkloadReport workload(Report r, String name) {
        for (Report.WorkloadReport w : r.workloads()) {
            if (w.name().equals(name)) {
                return w;
            }
        }
        return null;
    }

    private static Report.CgroupReport cgroup(Report r, String path) {
        for (Report.CgroupReport c : r.cgroups()) {
            if (c.path().equals(path)) {
                return c;
            }
        }
        return null;
    }

    private static double[] values(List<Report> runs, Metric m) {
        double[] out = new double[runs.size()];
        Iterator<Report> it = runs.iterator();
        for (int i = 0; i < out.length; i++) {
            Double d = m.value().apply(it.next());
            if (d == null || d.isNaN() || d.isInfinite()) {
                return null;
            }
            out[i] = d;
        }
        return out;
    }

    private static double mean(double[] xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return s / xs.length;
    }

    private static JsonNode stdPct(double[] xs, double mean) {
        if (xs.length < 2) {
            return num(0);
        }
        double ss = 0;
        for (double x : xs) {
            ss += (x - mean) * (x - mean);
        }
        double std = Math.sqrt(ss / (xs.length - 1));
        if (mean == 0) {
            return std == 0 ? num(0) : NODES.nullNode();
        }
        return num(std / Math.abs(mean) * 100);
    }
}
