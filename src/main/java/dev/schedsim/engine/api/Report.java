package dev.schedsim.engine.api;

import java.util.List;

/**
 * What one run reports (docs/api.md, "The result", gives each figure as the service returns it). Times in µs,
 * percentages 0..100.
 *
 * @param simulatedUs simulated time reached (the duration, or less when every finite workload finished)
 * @param events      events processed
 * @param cgroups     per cgroup in spec order
 * @param workloads   per workload in spec order
 * @param cpus        machine-wide CPU figures
 * @param scheduler   scheduler activity
 */
public record Report(long simulatedUs, long events, List<CgroupReport> cgroups, List<WorkloadReport> workloads,
                     CpuReport cpus, SchedulerReport scheduler, TimeSeries timeSeries, Trace trace) {

    /**
     * Series in buckets of {@code bucketUs}: the mean number of busy CPUs, and per cgroup the CPU time used
     * and the throttled time (summed over CPUs, as throttled_usec) in each bucket, µs.
     */
    public record TimeSeries(long bucketUs, List<Double> busyCpus, List<CgroupSeries> cgroups) {
        public TimeSeries {
            busyCpus = List.copyOf(busyCpus);
            cgroups = List.copyOf(cgroups);
        }
    }

    /**
     * One cgroup's series: CPU time and throttled time in each bucket, and its cpu.stat as it stood at each
     * bucket's end ({@code usageUsec}, {@code nrPeriods}, {@code nrThrottled}, {@code throttledUsec}: counters,
     * the last equal to the report's cpu.stat; null in reports stored before they were recorded).
     */
    public record CgroupSeries(String path, List<Long> usageUs, List<Long> throttledUs, List<Long> usageUsec,
                               List<Long> nrPeriods, List<Long> nrThrottled, List<Long> throttledUsec) {
        public CgroupSeries {
            usageUs = List.copyOf(usageUs);
            throttledUs = List.copyOf(throttledUs);
            usageUsec = usageUsec == null ? null : List.copyOf(usageUsec);
            nrPeriods = nrPeriods == null ? null : List.copyOf(nrPeriods);
            nrThrottled = nrThrottled == null ? null : List.copyOf(nrThrottled);
            throttledUsec = throttledUsec == null ? null : List.copyOf(throttledUsec);
        }

        public CgroupSeries(String path, List<Long> usageUs, List<Long> throttledUs) {
            this(path, usageUs, throttledUs, null, null, null, null);
        }
    }

    /**
     * A thread of the trace: its stable pid (1000 + its task id; the idle task of each CPU is pid 0), its
     * process (tgid: the pid of its workload's first thread), comm (the workload's name as the kernel keeps it:
     * at most 15 characters, no spaces), the name the report uses (workload/task id), its cgroup and its prio
     * (120 + nice).
     */
    public record TraceThread(int pid, int tgid, String comm, String name, String cgroup, int prio) {
    }

    /**
     * One trace event, recorded when it happened (so in time order): {@code kind} is {@code switch_in} (pid
     * becomes rq->curr of cpu, leaving whatever ran there; {@code state} "resumed" when it was rq->curr all along
     * and tasks parked by the 6.18 throttle at their pick ran in between), {@code switch_out} (pid leaves it,
     * unless it was left already; {@code state} as sched_switch prints prev_state: "R" preempted or parked, "S"
     * asleep or blocked, "X" exited), {@code waking} (try_to_wake_up() on
     * the waker's cpu: fromCpu is the task's previous CPU, -1 if it never ran, toCpu the one chosen),
     * {@code wakeup_new} (a new task on toCpu), {@code migrate} (load balancing moves pid from fromCpu to toCpu,
     * on cpu's line), {@code throttle} / {@code unthrottle} (cgroup's cfs_rq on cpu starts / ends its throttled
     * time). Fields that do not apply are -1 or null.
     */
    public record TraceEvent(long timeNs, String kind, int cpu, int pid, String state, int fromCpu, int toCpu,
                             String cgroup) {
    }

    /**
     * The recorded trace (only when the spec asked for one), bounded in size: it covers [0, endNs), which is the
     * run's end or, when {@code truncated}, the time the event budget ran out (nothing after it is recorded).
     */
    public record Trace(List<TraceThread> threads, List<TraceEvent> events, boolean truncated, long endNs) {
        public Trace {
            threads = List.copyOf(threads);
            events = List.copyOf(events);
        }
    }

    /**
     * cgroup v2 cpu.stat with the kernel's semantics: usage_usec as kernel/cgroup/rstat.c,
     * cgroup_base_stat_cputime_show() prints it, the rest as kernel/sched/core.c, cpu_extra_stat_show().
     */
    public record CpuStat(long usageUsec, long nrPeriods, long nrThrottled, long throttledUsec, long nrBursts,
                          long burstUsec) {
    }

    public record CgroupReport(String path, CpuStat cpuStat) {
    }

    /**
     * Latency percentiles in µs, and the share of latencies over 100 µs in per cent: where latencies split into
     * immediate ones and ones that waited for a running thread, a percentile near that share jumps between the two
     * modes from seed to seed, and the share is what decides it (docs/latency-validation.md, "Percentiles at a gap").
     * The share is null in a report stored before it existed (a run's stored report is read back as this record).
     */
    public record Latency(double p50, double p90, double p99, double p999, double max, long count,
                          Double over100usPct) {
    }

    /**
     * @param cpuUsec          CPU time of the workload's threads
     * @param completionUs     time at which the last thread finished; -1 when the workload never finishes
     *                         or did not finish in time
     * @param throughputPerSec completed units per simulated second (cpu-bound: CPU-seconds of work done,
     *                         periodic: cycles, request-response: transactions, hackbench: messages,
     *                         schbench: requests, trace: segments, phases: phase iterations)
     * @param requestLatencyUs schbench with {@code rps} only (else null): the latency schbench -R prints, a
     *                         request's completion time minus its queueing time minus its CPU time
     */
    public record WorkloadReport(String name, long cpuUsec, long completionUs, double throughputPerSec,
                                 Latency wakeupLatencyUs, long contextSwitches, long migrations, long wakeups,
                                 Latency requestLatencyUs) {
    }

    /**
     * @param perCpuBusyPct busy share of each CPU
     */
    public record CpuReport(double busyPct, double idlePct, double overheadPct, double avgPowerWatts,
                            List<Double> perCpuBusyPct) {
        public CpuReport {
            perCpuBusyPct = List.copyOf(perCpuBusyPct);
        }
    }

    /**
     * @param loadBalances      periodic balance attempts (sched_balance_rq, not newly idle)
     * @param newidleBalances   newidle balances that got past the avg_idle gate
     * @param overheadPct       scheduler work as a share of all CPU time
     * @param tasksMoved        tasks moved by load balancing (active balance included)
     * @param activeBalances    active balances (the stopper pushed a running task)
     * @param idleScans         select_idle_cpu() scans
     * @param cpusScanned       CPUs examined by those scans
     * @param serializeAttempts compare-and-swaps on sched_balance_running
     * @param serializePct      share of all CPU cycles spent on them
     * @param newidleCost       sd->max_newidle_lb_cost per domain level, sampled at each newidle balance
     * @param wakeupMigrations  migrations at wakeup: select_task_rq() chose another CPU (nr_wakeups_migrate)
     * @param newidlePulls      tasks pulled by newidle balance (lb_gained[CPU_NEWLY_IDLE]); the rest of
     *                          {@code tasksMoved} came from the periodic and the active balance
     */
    public record SchedulerReport(long contextSwitches, long migrations, long wakeups, long loadBalances,
                                  long newidleBalances, double overheadPct, long tasksMoved, long activeBalances,
                                  long idleScans, long cpusScanned, long serializeAttempts, double serializePct,
                                  List<LevelCost> newidleCost, long wakeupMigrations, long newidlePulls) {
        public SchedulerReport {
            newidleCost = List.copyOf(newidleCost);
        }
    }

    /** Newidle cost of one domain level in µs (min / avg / max over samples), as seed 003's table. */
    public record LevelCost(String level, double minUs, double avgUs, double maxUs, long samples) {
    }
}
