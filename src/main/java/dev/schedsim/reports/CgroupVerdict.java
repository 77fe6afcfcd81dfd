package dev.schedsim.reports;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.result.ResultDocument;

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
     * A cgroup as its reader knows it: "container web of shop/checkout (/kubepods/burstable/pod…/web)" for a pod's
     * container, "pod shop/checkout (…)" for the pod's own cgroup, else the path.
     *
     * @param labels the cgroup's cAdvisor labels (namespace, pod, container), or null
     */
    static String named(String path, java.util.Map<String, String> labels) {
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
