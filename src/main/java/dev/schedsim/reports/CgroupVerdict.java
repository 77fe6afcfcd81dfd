package dev.schedsim.reports;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.result.ResultDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A cgroup's result in one sentence, in the terms of a pod's CPU limit: how often its quota ran out, at what
 * limit, and what it used. It reads only the run's cpu.stat and the cgroup's settings: what to change is the
 * advisor's question, not the report's.
 */
final class CgroupVerdict {
    /** A cgroup throttled in at least this share of its periods is held to its quota. */
    static final double MOSTLY = 0.5;

    private CgroupVerdict() {
    }

    /**
     * One sentence per cgroup of variant v.
     *
     * @param byPath          the variant's cgroup settings from the plan, or null
     * @param kubernetesNames the plan's cAdvisor labels by path (a pod's cgroups)
     */
    static List<String> verdicts(ResultDocument.Variant v, Map<String, CgroupSpec> byPath,
                                 Map<String, Map<String, String>> kubernetesNames) {
        List<String> out = new ArrayList<>();
        for (ResultDocument.Cgroup c : v.cgroups() == null ? List.<ResultDocument.Cgroup>of() : v.cgroups()) {
            out.add(of(named(c.path(), kubernetesNames.get(c.path())), byPath == null ? null : byPath.get(c.path()),
                    c.cpuStat(), d(v.simulatedUs()), idleCpus(v)));
        }
        return out;
    }

    /** The machine's idle CPUs on average: its idle share times its CPUs; NaN when the result has neither. */
    static double idleCpus(ResultDocument.Variant v) {
        ResultDocument.Cpus c = v.cpus();
        if (c == null || c.idlePct() == null || c.perCpuBusyPct() == null || c.perCpuBusyPct().isEmpty()) {
            return Double.NaN;
        }
        return c.idlePct() / 100 * c.perCpuBusyPct().size();
    }

    /** The cgroups of variant v in a reader's units, a header row first. */
    static List<List<String>> table(ResultDocument.Variant v, Map<String, CgroupSpec> byPath) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("cgroup", "limit", "CPU used", "throttled", "throttled time", "burst time"));
        for (ResultDocument.Cgroup c : v.cgroups() == null ? List.<ResultDocument.Cgroup>of() : v.cgroups()) {
            ResultDocument.CpuStat s = c.cpuStat();
            double periods = d(s.nrPeriods());
            rows.add(List.of(c.path(), limit(byPath == null ? null : byPath.get(c.path())),
                    Units.ms(d(s.usageUsec())) + " (" + Units.cpus(d(s.usageUsec()) / Math.max(1, d(v.simulatedUs())))
                            + ")",
                    periods > 0 ? Units.grouped(d(s.nrThrottled())) + " of " + Units.grouped(periods) + " periods ("
                            + Units.pct(d(s.nrThrottled()) / periods) + ")" : Units.NONE,
                    periods > 0 ? Units.ms(d(s.throttledUsec())) : Units.NONE,
                    d(s.nrBursts()) > 0 ? Units.ms(d(s.burstUsec())) + " in " + Units.grouped(d(s.nrBursts()))
                            + " periods" : Units.NONE));
        }
        return rows;
    }

    /**
     * A cgroup as its reader knows it: "container web of shop/checkout (/kubepods/burstable/pod…/web)" for a pod's
     * container, "pod shop/checkout (…)" for the pod's own cgroup, else the path.
     *
     * @param labels the cgroup's cAdvisor labels (namespace, pod, container), or null
     */
    static String named(String path, Map<String, String> labels) {
        if (labels == null || labels.get("pod") == null || labels.get("pod").isEmpty()) {
            return path;
        }
        String pod = labels.getOrDefault("namespace", "default") + "/" + labels.get("pod");
        String container = labels.getOrDefault("container", "");
        return (container.isEmpty() ? "pod " + pod : "container " + container + " of " + pod) + " (" + path + ")";
    }

    /** "0.5 CPU (cpu.max 50000 100000)", "no limit (cpu.max max), cpu.weight 100", or "–" when unknown. */
    static String limit(CgroupSpec c) {
        if (c == null) {
            return Units.NONE;
        }
        if (c.quotaUs() < 0) {
            return "no limit (cpu.max max), cpu.weight " + c.weight();
        }
        return Units.cpus((double) c.quotaUs() / c.periodUs()) + " (cpu.max " + c.quotaUs() + " " + c.periodUs()
                + (c.burstUs() > 0 ? ", cpu.max.burst " + c.burstUs() : "") + ")";
    }

    /**
     * @param limit       the cgroup's settings in this variant, null when unknown (then the quota's figures are left
     *                    out)
     * @param simulatedUs the variant's simulated time
     * @param idleCpus    the machine's idle CPUs on average over the run (NaN when unknown): whether a throttled
     *                    cgroup's extra demand had anywhere to run
     */
    static String of(String path, CgroupSpec limit, ResultDocument.CpuStat s, double simulatedUs, double idleCpus) {
        double used = d(s.usageUsec()) / Math.max(1, simulatedUs);
        String usedText = Units.cpus(used);
        if (path.equals("/")) {
            return "/ (the whole machine): used " + usedText + ".";
        }
        double periods = d(s.nrPeriods());
        double throttled = d(s.nrThrottled());
        boolean quota = limit != null ? limit.quotaUs() >= 0 : periods > 0;
        if (!quota) {
            return path + ": no CPU limit of its own" + (limit != null ? " (cpu.weight " + limit.weight() + ")" : "")
                    + "; it used " + usedText + ".";
        }
        String at = limit != null ? " at " + limit(limit) : "";
        if (throttled == 0) {
            String share = limit != null && limit.quotaUs() > 0
                    ? " (" + Units.pct(used / ((double) limit.quotaUs() / limit.periodUs())) + " of its quota)" : "";
            return path + ": never throttled in " + Units.grouped(periods) + " periods" + at + "; it used "
                    + usedText + share + burst(s) + ".";
        }
        String counted = "throttled in " + Units.grouped(throttled) + " of " + Units.grouped(periods) + " periods"
                + at + ", " + Units.ms(d(s.throttledUsec())) + " in all (summed over its CPUs)";
        String why = throttled / periods >= MOSTLY
                ? "its quota is what holds it back; it used " + usedText
                : "its demand exceeds the quota now and then; it used " + usedText + " on average";
        return path + ": " + counted + ": " + why + burst(s) + "." + demand(s, simulatedUs, idleCpus);
    }

    /**
     * What it would have used without the limit, at most: its use plus its throttled time (each throttled cfs_rq
     * had a task ready to run on that CPU all the while, which it would have shared with whatever else ran there),
     * and the machine's idle CPUs, where such demand could have run without taking anyone's time.
     */
    private static String demand(ResultDocument.CpuStat s, double simulatedUs, double idleCpus) {
        double upTo = (d(s.usageUsec()) + d(s.throttledUsec())) / Math.max(1, simulatedUs);
        String idle = Double.isNaN(idleCpus) ? "" : "; the machine had " + Units.cpus(idleCpus) + " idle on average";
        return " Without the limit it would have used at most " + Units.cpus(upTo) + " (its use plus its throttled "
                + "time)" + idle + ".";
    }

    private static String burst(ResultDocument.CpuStat s) {
        return d(s.nrBursts()) > 0 ? ", and ran on burst time in " + Units.grouped(d(s.nrBursts())) + " periods ("
                + Units.ms(d(s.burstUsec())) + ")" : "";
    }

    private static double d(Double x) {
        return x == null ? 0 : x;
    }
}
