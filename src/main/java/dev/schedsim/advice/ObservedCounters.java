package dev.schedsim.advice;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.http.Violations;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * What a throttled container showed over a window, as {@code cpu.stat} (cgroup v2; v1's cpu.stat and
 * cpuacct.usage) or cAdvisor's Prometheus counters give it: the increases of the counters between two readings
 * {@code windowMs} apart, and the cpu.max in force meanwhile. Read into {@link Window}s in µs, every violation
 * at once, each saying how to fix it.
 */
final class ObservedCounters {
    /** The most windows one advice fits (each costs a run per candidate). */
    static final int MAX_WINDOWS = 8;
    /** The most threads of the family (each is a thread of every fit run). */
    static final int MAX_THREADS = 64;

    private ObservedCounters() {
    }

    /** One window as posted: cpu.stat's names, or cAdvisor's (increases over the window). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ObservedWindow", description = "counter increases over one window at one cpu.max; each counter "
            + "by its cpu.stat name or its cAdvisor name, not both")
    record Posted(
            @Schema(description = "the cpu.max in force over the window, \"quota period\" µs, or \"max\" (v1: "
                    + "cpu.cfs_quota_us and cpu.cfs_period_us; cAdvisor: container_spec_cpu_quota and "
                    + "container_spec_cpu_period)", example = "60000 100000") String cpuMax,
            @Schema(description = "the time between the two readings, ms", example = "5000", minimum = "1")
            Long windowMs,
            @Schema(description = "cpu.stat nr_periods increase", minimum = "0") Long nrPeriods,
            @Schema(description = "cpu.stat nr_throttled increase", minimum = "0") Long nrThrottled,
            @Schema(description = "cpu.stat throttled_usec increase (v1: throttled_time / 1000); shown, not fitted",
                    minimum = "0") Long throttledUsec,
            @Schema(description = "cpu.stat usage_usec increase (v1: cpuacct.usage / 1000)", minimum = "0")
            Long usageUsec,
            @JsonProperty("container_cpu_cfs_periods_total")
            @Schema(description = "instead of nrPeriods: its increase over the window", minimum = "0")
            Double cfsPeriodsTotal,
            @JsonProperty("container_cpu_cfs_throttled_periods_total")
            @Schema(description = "instead of nrThrottled: its increase over the window", minimum = "0")
            Double cfsThrottledPeriodsTotal,
            @JsonProperty("container_cpu_cfs_throttled_seconds_total")
            @Schema(description = "instead of throttledUsec: its increase over the window, s", minimum = "0")
            Double cfsThrottledSecondsTotal,
            @JsonProperty("container_cpu_usage_seconds_total")
            @Schema(description = "instead of usageUsec: its increase over the window, s", minimum = "0")
            Double usageSecondsTotal) {
    }

    /** One window read: quota -1 for "max". */
    @Schema(name = "ObservedCounters")
    record Window(long quotaUs, long periodUs, long windowUs, long nrPeriods, long nrThrottled, Long throttledUsec,
                  long usageUsec) {
        boolean limited() {
            return quotaUs >= 0;
        }

        /** nr_throttled / nr_periods (0 without a period). */
        double throttledShare() {
            return nrPeriods == 0 ? 0 : (double) nrThrottled / nrPeriods;
        }

        /** The mean CPUs used over the window. */
        double usageCpus() {
            return (double) usageUsec / windowUs;
        }

        String cpuMax() {
            return limited() ? quotaUs + " " + periodUs : "max";
        }
    }

    /** The windows read, or an empty list after violations (added to {@code v}). */
    static List<Window> read(List<Posted> posted, Integer threads, Violations v) {
        List<Window> out = new ArrayList<>();
        if (posted == null || posted.isEmpty()) {
            v.add("observed", "give at least one window: {\"cpuMax\": \"60000 100000\", \"windowMs\": 5000, "
                    + "\"nrPeriods\": 50, \"nrThrottled\": 25, \"usageUsec\": 2984000}");
            return out;
        }
        if (posted.size() > MAX_WINDOWS) {
            v.add("observed", "at most " + MAX_WINDOWS + " windows (" + posted.size() + " given): keep one per "
                    + "limit, the longest");
            return out;
        }
        for (int i = 0; i < posted.size(); i++) {
            Window w = window(posted.get(i), threads, "observed[" + i + "]", v);
            if (w != null) {
                out.add(w);
            }
        }
        return out.size() == posted.size() ? out : List.of();
    }

    private static Window window(Posted p, Integer threads, String f, Violations v) {
        if (p == null) {
            v.add(f, "a window, not null");
            return null;
        }
        int before = v.size();
        long[] qp = cpuMax(p.cpuMax(), f + ".cpuMax", v);
        Long windowMs = p.windowMs();
        if (windowMs == null || windowMs < 1) {
            v.add(f + ".windowMs", "required: the time between the two readings, ms (>= 1)");
        } else if (qp != null && windowMs * 1000 < qp[1]) {
            v.add(f + ".windowMs", "the window (" + windowMs + " ms) is shorter than one period (" + qp[1]
                    + " µs): read the counters at least one period apart, better 50 or more");
        }
        Long periods = pick(p.nrPeriods(), p.cfsPeriodsTotal(), 1, f, "nrPeriods", "container_cpu_cfs_periods_total", v);
        Long throttled = pick(p.nrThrottled(), p.cfsThrottledPeriodsTotal(), 1, f, "nrThrottled",
                "container_cpu_cfs_throttled_periods_total", v);
        Long throttledUsec = pick(p.throttledUsec(), p.cfsThrottledSecondsTotal(), 1e6, f, "throttledUsec",
                "container_cpu_cfs_throttled_seconds_total", v);
        Long usage = pick(p.usageUsec(), p.usageSecondsTotal(), 1e6, f, "usageUsec",
                "container_cpu_usage_seconds_total", v);
        if (usage == null && v.size() == before) {
            v.add(f + ".usageUsec", "required: the usage_usec increase over the window (or "
                    + "container_cpu_usage_seconds_total's)");
        }
        boolean limited = qp != null && qp[0] >= 0;
        if (limited && (periods == null || throttled == null) && !v.namesSince(before, f + ".nrPeriods")
                && !v.namesSince(before, f + ".nrThrottled")) {
            v.add(f + (periods == null ? ".nrPeriods" : ".nrThrottled"), "required at a limit: the nr_periods "
                    + "and nr_throttled increases (or container_cpu_cfs_periods_total's and "
                    + "container_cpu_cfs_throttled_periods_total's)");
        }
        if (v.size() > before || qp == null) {
            return null;
        }
        long windowUs = windowMs * 1000;
        long n = periods == null ? 0 : periods;
        long t = throttled == null ? 0 : throttled;
        if (t > n) {
            v.add(f + ".nrThrottled", "nrThrottled (" + t + ") cannot exceed nrPeriods (" + n + "): nr_throttled "
                    + "counts periods, among nr_periods, that ended throttled; read both over the same window");
        }
        if (limited && n == 0) {
            v.add(f + ".nrPeriods", "0 periods at a limit: the cgroup did not run in the window, so nothing "
                    + "can be fitted from it; leave the window out or read over a busier one");
        }
        if (limited && n > windowUs / qp[1] + 1) {
            v.add(f + ".nrPeriods", "the window holds at most " + (windowUs / qp[1] + 1) + " periods of "
                    + qp[1] + " µs, not " + n + ": windowMs is the time between the two readings");
        }
        if (threads != null && usage > (long) threads * windowUs * 101 / 100) {
            v.add(f + ".usageUsec", "more than " + threads + " threads can use in " + windowMs + " ms: raise "
                    + "threads, or check windowMs");
        }
        if (limited && usage > (n + 1) * qp[0] * 105 / 100) {
            v.add(f + ".usageUsec", "more than " + (n + 1) + " periods of " + qp[0] + " µs quota allow: was the "
                    + "limit " + p.cpuMax() + " all through the window (and no cpu.max.burst)?");
        }
        return v.size() > before ? null : new Window(qp[0], qp[1], windowUs, n, t, throttledUsec, usage);
    }

    /** {quota (-1: max), period} from "quota period", "max" or "max period"; null after a violation. */
    static long[] cpuMax(String s, String f, Violations v) {
        if (s == null || s.isBlank()) {
            v.add(f, "required: the cpu.max over the window, e.g. \"60000 100000\" (quota and period, µs) or "
                    + "\"max\"");
            return null;
        }
        String[] parts = s.trim().split("\\s+");
        try {
            long period = parts.length > 1 ? Long.parseLong(parts[1]) : 100_000;
            long quota = parts[0].equals("max") ? -1 : Long.parseLong(parts[0]);
            if (parts.length > 2 || period < CgroupSpec.MIN_QUOTA_PERIOD_US || period > CgroupSpec.MAX_PERIOD_US
                    || (quota != -1 && quota < CgroupSpec.MIN_QUOTA_PERIOD_US)) {
                throw new NumberFormatException();
            }
            return new long[] {quota, period};
        } catch (NumberFormatException e) {
            v.add(f, "'" + s + "' is not a cpu.max: \"quota period\" in µs (quota >= "
                    + CgroupSpec.MIN_QUOTA_PERIOD_US + ", period " + CgroupSpec.MIN_QUOTA_PERIOD_US + ".."
                    + CgroupSpec.MAX_PERIOD_US + "), or \"max\"");
            return null;
        }
    }

    /**
     * A counter given by one of its two names (cAdvisor's scaled by {@code scale} to cpu.stat's unit and rounded);
     * null when neither is given, or after a violation.
     */
    private static Long pick(Long statValue, Double promValue, double scale, String f, String statName,
                             String promName, Violations v) {
        if (statValue != null && promValue != null) {
            v.add(f + "." + statName, "give " + statName + " or " + promName + ", not both");
            return null;
        }
        if (statValue != null) {
            if (statValue < 0) {
                v.add(f + "." + statName, "must be >= 0 (an increase over the window: later reading minus the "
                        + "earlier)");
                return null;
            }
            return statValue;
        }
        if (promValue != null) {
            if (!(promValue >= 0) || promValue.isInfinite()) {
                v.add(f + "." + promName, "must be a finite increase >= 0 (a counter reset inside the window "
                        + "makes it negative: use increase() or another window)");
                return null;
            }
            return Math.round(promValue * scale);
        }
        return null;
    }
}
