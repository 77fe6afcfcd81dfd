package dev.schedsim.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * The {@code result} of a simulation (docs/api.md, "The result"): per variant the mean of its repetitions (and each run when there
 * are several), its first repetition's time series, and with two or more variants the comparison against the
 * first. Numbers are {@link Num}s: means may be fractional; a value that is missing in any run is null.
 *
 * @param variants   in plan order
 * @param comparison with two or more variants, else absent
 */
@JsonPropertyOrder({"variants", "comparison"})
public record ResultDocument(List<Variant> variants,
                             @JsonInclude(JsonInclude.Include.NON_NULL) List<ComparisonRow> comparison) {

    /**
     * One variant: its label and seeds, the means of its runs, the runs themselves when there are several, and
     * its first run's time series.
     */
    @JsonPropertyOrder({"label", "repetitions", "seeds", "simulatedUs", "events", "cgroups", "workloads", "cpus",
        "scheduler", "runs", "timeSeries", "cadvisor"})
    public record Variant(String label, int repetitions, List<Long> seeds,
                          @JsonSerialize(using = Num.class) Double simulatedUs,
                          @JsonSerialize(using = Num.class) Double events,
                          List<Cgroup> cgroups, List<Workload> workloads, Cpus cpus, Scheduler scheduler,
                          @JsonInclude(JsonInclude.Include.NON_NULL) List<Run> runs,
                          @JsonInclude(JsonInclude.Include.NON_NULL) TimeSeries timeSeries,
                          @JsonInclude(JsonInclude.Include.NON_NULL) List<Cadvisor> cadvisor) {
        public Variant(String label, int repetitions, List<Long> seeds, Double simulatedUs, Double events,
                       List<Cgroup> cgroups, List<Workload> workloads, Cpus cpus, Scheduler scheduler, List<Run> runs,
                       TimeSeries timeSeries) {
            this(label, repetitions, seeds, simulatedUs, events, cgroups, workloads, cpus, scheduler, runs,
                    timeSeries, null);
        }
    }

    /**
     * A cgroup's cpu.stat in cAdvisor's names, types and units (google/cadvisor lib/metrics/prometheus.go, as the
     * kubelet's /metrics/cadvisor serves them): counters in periods and seconds, labelled {@code id} (the cgroup
     * path) and, for a pod's cgroups, {@code namespace}, {@code pod} and {@code container} (empty for the pod
     * cgroup). The CFS counters only where the cgroup has a quota (cAdvisor's condition {@code Cpu.Quota != 0}).
     * Means over the repetitions, like {@code cgroups} (seconds to the µs); results stored before the block have
     * none.
     */
    @JsonPropertyOrder({"labels", "container_cpu_usage_seconds_total", "container_cpu_cfs_periods_total",
        "container_cpu_cfs_throttled_periods_total", "container_cpu_cfs_throttled_seconds_total"})
    public record Cadvisor(java.util.Map<String, String> labels,
                           @com.fasterxml.jackson.annotation.JsonProperty("container_cpu_usage_seconds_total")
                           Double usageSeconds,
                           @com.fasterxml.jackson.annotation.JsonProperty("container_cpu_cfs_periods_total")
                           @JsonInclude(JsonInclude.Include.NON_NULL)
                           @JsonSerialize(using = Num.class) Double periods,
                           @com.fasterxml.jackson.annotation.JsonProperty("container_cpu_cfs_throttled_periods_total")
                           @JsonInclude(JsonInclude.Include.NON_NULL)
                           @JsonSerialize(using = Num.class) Double throttledPeriods,
                           @com.fasterxml.jackson.annotation.JsonProperty("container_cpu_cfs_throttled_seconds_total")
                           @JsonInclude(JsonInclude.Include.NON_NULL) Double throttledSeconds) {
    }

    /** One run (one seed) of a variant. */
    @JsonPropertyOrder({"seed", "simulatedUs", "events", "cgroups", "workloads", "cpus", "scheduler"})
    public record Run(long seed, @JsonSerialize(using = Num.class) Double simulatedUs,
                      @JsonSerialize(using = Num.class) Double events, List<Cgroup> cgroups, List<Workload> workloads,
                      Cpus cpus, Scheduler scheduler) {
    }

    public record Cgroup(String path, CpuStat cpuStat) {
    }

    /** cgroup v2 cpu.stat. */
    @JsonPropertyOrder({"usageUsec", "nrPeriods", "nrThrottled", "throttledUsec", "nrBursts", "burstUsec"})
    public record CpuStat(@JsonSerialize(using = Num.class) Double usageUsec,
                          @JsonSerialize(using = Num.class) Double nrPeriods,
                          @JsonSerialize(using = Num.class) Double nrThrottled,
                          @JsonSerialize(using = Num.class) Double throttledUsec,
                          @JsonSerialize(using = Num.class) Double nrBursts,
                          @JsonSerialize(using = Num.class) Double burstUsec) {
    }

    /** A workload: its threads' sums, throughput and latency percentiles; {@code completionUs} null if unfinished. */
    @JsonPropertyOrder({"name", "cpuUsec", "completionUs", "throughputPerSec", "wakeupLatencyUs", "requestLatencyUs",
        "contextSwitches", "migrations", "wakeups"})
    public record Workload(String name, @JsonSerialize(using = Num.class) Double cpuUsec,
                           @JsonSerialize(using = Num.class) Double completionUs,
                           @JsonSerialize(using = Num.class) Double throughputPerSec, Latency wakeupLatencyUs,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Latency requestLatencyUs,
                           @JsonSerialize(using = Num.class) Double contextSwitches,
                           @JsonSerialize(using = Num.class) Double migrations,
                           @JsonSerialize(using = Num.class) Double wakeups) {
    }

    /**
     * Latency percentiles in µs, the sample count, and the share of latencies over 100 µs in per cent: where
     * wakeups split into immediate ones and ones that waited for a running thread, a percentile near that share
     * jumps between the two from seed to seed, and the share is the steadier figure (docs/latency-validation.md,
     * "Percentiles at a gap"). Absent in a result stored before it existed.
     */
    @JsonPropertyOrder({"p50", "p90", "p99", "p999", "max", "count", "over100usPct"})
    public record Latency(@JsonSerialize(using = Num.class) Double p50, @JsonSerialize(using = Num.class) Double p90,
                          @JsonSerialize(using = Num.class) Double p99, @JsonSerialize(using = Num.class) Double p999,
                          @JsonSerialize(using = Num.class) Double max,
                          @JsonSerialize(using = Num.class) Double count,
                          @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSerialize(using = Num.class)
                          Double over100usPct) {
    }

    @JsonPropertyOrder({"busyPct", "idlePct", "overheadPct", "avgPowerWatts", "perCpuBusyPct"})
    public record Cpus(@JsonSerialize(using = Num.class) Double busyPct,
                       @JsonSerialize(using = Num.class) Double idlePct,
                       @JsonSerialize(using = Num.class) Double overheadPct,
                       @JsonSerialize(using = Num.class) Double avgPowerWatts,
                       @JsonSerialize(contentUsing = Num.class) List<Double> perCpuBusyPct) {
    }

    @JsonPropertyOrder({"contextSwitches", "migrations", "wakeups", "loadBalances", "newidleBalances", "overheadPct",
        "tasksMoved", "activeBalances", "idleScans", "cpusScanned", "serializeAttempts", "serializePct",
        "newidleCostUs", "wakeupMigrations", "newidlePulls"})
    public record Scheduler(@JsonSerialize(using = Num.class) Double contextSwitches,
                            @JsonSerialize(using = Num.class) Double migrations,
                            @JsonSerialize(using = Num.class) Double wakeups,
                            @JsonSerialize(using = Num.class) Double loadBalances,
                            @JsonSerialize(using = Num.class) Double newidleBalances,
                            @JsonSerialize(using = Num.class) Double overheadPct,
                            @JsonSerialize(using = Num.class) Double tasksMoved,
                            @JsonSerialize(using = Num.class) Double activeBalances,
                            @JsonSerialize(using = Num.class) Double idleScans,
                            @JsonSerialize(using = Num.class) Double cpusScanned,
                            @JsonSerialize(using = Num.class) Double serializeAttempts,
                            @JsonSerialize(using = Num.class) Double serializePct, List<LevelCost> newidleCostUs,
                            // (after the rest, and absent in documents stored before them)
                            @JsonInclude(JsonInclude.Include.NON_NULL)
                            @JsonSerialize(using = Num.class) Double wakeupMigrations,
                            @JsonInclude(JsonInclude.Include.NON_NULL)
                            @JsonSerialize(using = Num.class) Double newidlePulls) {
    }

    /** max_newidle_lb_cost of one domain level, µs. */
    @JsonPropertyOrder({"level", "min", "avg", "max", "samples"})
    public record LevelCost(String level, @JsonSerialize(using = Num.class) Double min,
                            @JsonSerialize(using = Num.class) Double avg, @JsonSerialize(using = Num.class) Double max,
                            @JsonSerialize(using = Num.class) Double samples) {
    }

    /** The first run's series: busy CPUs per bucket, per cgroup its usage and throttled time per bucket (µs). */
    @JsonPropertyOrder({"bucketUs", "busyCpus", "cgroups"})
    public record TimeSeries(long bucketUs, @JsonSerialize(contentUsing = Num.class) List<Double> busyCpus,
                             List<CgroupSeries> cgroups) {
    }

    @JsonPropertyOrder({"path", "usageUs", "throttledUs"})
    public record CgroupSeries(String path, List<Long> usageUs, List<Long> throttledUs) {
    }

    /**
     * One metric of a variant against the baseline: the means, the improvement in % (positive is better; null
     * when the baseline is 0 and the variant not) and each side's standard deviation over repetitions in % of its
     * mean.
     */
    @JsonPropertyOrder({"metric", "baseline", "variant", "baselineMean", "variantMean", "pctImprovement",
        "baselineStdPct", "variantStdPct"})
    public record ComparisonRow(String metric, String baseline, String variant,
                                @JsonSerialize(using = Num.class) Double baselineMean,
                                @JsonSerialize(using = Num.class) Double variantMean,
                                @JsonSerialize(using = Num.class) Double pctImprovement,
                                @JsonSerialize(using = Num.class) Double baselineStdPct,
                                @JsonSerialize(using = Num.class) Double variantStdPct) {
    }
}
