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

    /** "0.5 CPU (cpu.max 50000 100000)", "no limit (cpu.max max), cpu.weight 100", or "-" when unknown. */
    static String limit(CgroupSpec c) {
        if (c == null) {
            return "-";
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
     */
    static String of(String path, CgroupSpec limit, ResultDocument.CpuStat s, double simulatedUs) {
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
                + at + ", " + Units.ms(d(s.throttledUsec())) + " in all";
        String why = throttled / periods >= MOSTLY
                ? "its quota is what holds it back; it used " + usedText
                : "its demand exceeds the quota now and then; it used " + usedText + " on average";
        return path + ": " + counted + ": " + why + burst(s) + ".";
    }

    private static String burst(ResultDocument.CpuStat s) {
        return d(s.nrBursts()) > 0 ? ", and ran on burst time in " + Units.grouped(d(s.nrBursts())) + " periods ("
                + Units.ms(d(s.burstUsec())) + ")" : "";
    }

    private static double d(Double x) {
        return x == null ? 0 : x;
    }
}
