package dev.schedsim.engine.stats;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * What the report plots and the trace export need: time series in fixed buckets (machine occupancy; per
 * cgroup CPU time and throttled time) and, when the spec asks for a trace, a bounded list of scheduling events
 * (switches, wakeups, migrations, throttle starts and ends) in the order they happened. Intervals are split
 * exactly across bucket boundaries.
 */
public final class Recorder {
    /** At most this many buckets per series. */
    public static final int MAX_BUCKETS = 240;
    /** At most this many trace events (then the trace says it was truncated). */
    public static final int MAX_TRACE_EVENTS = 40_000;

    private final long bucketNs;
    private final int buckets;
    /** Busy CPU time per bucket (machine occupancy). */
    public final double[] busyNs;
    /** Per task group: CPU time per bucket. */
    public final double[][] usageNs;
    /** Per task group: throttled time per bucket, summed over CPUs. */
    public final double[][] throttledNs;
    /** Per task group: bandwidth periods (cpu.stat nr_periods) counted in each bucket. */
    private final long[][] periods;
    /** Per task group: periods counted throttled (nr_throttled) in each bucket. */
    private final long[][] throttledPeriods;
    private final boolean tracing;
    /** The pid of the first task; the others follow in task order. */
    public static final int FIRST_PID = 1000;
    private final List<Report.TraceEvent> events = new ArrayList<>();
    private final List<Report.TraceThread> threads = new ArrayList<>();
    /** Tasks already in {@link #threads}, by task id. */
    private final BitSet traced = new BitSet();
    /** CPUs where a parked pick ran since the last switch (see {@link #resumed}). */
    private final BitSet parkedOn = new BitSet();
    private boolean truncated;
    private long truncatedAtNs;
    /** The bucket {@link #bucketOf} found last, and its start. */
    private int lastBucket;
    private long lastStart;
    /**
     * The simulation time the report's time 0 is (the reported run's start after warm-up runs, EngineSpec.Warmup):
     * the buckets and the trace count from it, and what happened before it is not kept.
     */
    private long originNs;

    public Recorder(long endNs, int groups, boolean tracing) {
        long b = tidy(Math.max(1_000_000L, (endNs + MAX_BUCKETS - 1) / MAX_BUCKETS));
        this.bucketNs = b;
        this.buckets = (int) Math.max(1, (endNs + b - 1) / b);
        this.busyNs = new double[buckets];
        this.usageNs = new double[groups][buckets];
        this.throttledNs = new double[groups][buckets];
        this.periods = new long[groups][];
        this.throttledPeriods = new long[groups][];
        this.tracing = tracing;
    }

    /**
     * The smallest of 1, 2 and 5 ms times a power of ten at or above ns: buckets a plot's reader can count with
     * (10 ms, not 9; 50 ms, not 42).
     */
    static long tidy(long ns) {
        for (long decade = 1_000_000L; ; decade *= 10) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * decade >= ns) {
                    return m * decade;
                }
            }
        }
    }

    /**
     * The report starts at {@code originNs} (the end of the warm-up runs): everything recorded so far is dropped,
     * and the buckets and the trace count from there.
     */
    public void rebase(long origin) {
        this.originNs = origin;
        java.util.Arrays.fill(busyNs, 0);
        for (int g = 0; g < usageNs.length; g++) {
            java.util.Arrays.fill(usageNs[g], 0);
            java.util.Arrays.fill(throttledNs[g], 0);
            periods[g] = null;
            throttledPeriods[g] = null;
        }
        events.clear();
        threads.clear();
        traced.clear();
        truncated = false;
        lastBucket = 0;
        lastStart = origin;
    }

    /** Adds [from, to) to a series, split over the buckets it spans. */
    public void add(double[] series, long from, long to) {
        if (from < originNs) {
            from = originNs; // (an interval that began before the report's start)
        }
        if (to <= from) {
            return;
        }
        addFrom(series, bucketOf(from), from, to);
    }

    /**
     * The bucket of time t. Times come close together, so the last answer is kept: most calls then skip the
     * integer division.
     */
    private int bucketOf(long t) {
        if (t >= lastStart && t - lastStart < bucketNs) {
            return lastBucket;
        }
        int i = (int) Math.min(buckets - 1, (t - originNs) / bucketNs);
        if (i < buckets - 1) {
            lastBucket = i;
            lastStart = originNs + i * bucketNs;
        }
        return i;
    }

    /** Adds [from, to) to the CPU time of {@code g} and of every group above it (update_curr()'s usage). */
    public void addUsage(TaskGroup g, long from, long to) {
        if (from < originNs) {
            from = originNs;
        }
        if (to <= from) {
            return;
        }
        int first = bucketOf(from);
        if (first == lastBucket && to - lastStart <= bucketNs) {
            // (the common case: the interval lies in the bucket found last, so there is nothing to split)
            double ns = to - from;
            for (; g != null; g = g.parent) {
                usageNs[g.index][first] += ns;
            }
            return;
        }
        for (; g != null; g = g.parent) {
            addFrom(usageNs[g.index], first, from, to);
        }
    }

    private void addFrom(double[] series, int i, long from, long to) {
        long t = from;
        while (t < to && i < buckets) {
            long end = Math.min(to, originNs + (i + 1) * bucketNs);
            series[i] += end - t;
            t = end;
            i++;
        }
    }

    /**
     * do_sched_cfs_period_timer() counted {@code overrun} periods at {@code now} (and as many throttled ones when
     * {@code throttled}), as it adds them to nr_periods and nr_throttled. Arrays only for groups with a limit.
     */
    public void periods(TaskGroup g, long now, long overrun, boolean throttled) {
        if (periods[g.index] == null) {
            periods[g.index] = new long[buckets];
            throttledPeriods[g.index] = new long[buckets];
        }
        int i = (int) Math.min(buckets - 1, Math.max(0, now - originNs) / bucketNs);
        periods[g.index][i] += overrun;
        if (throttled) {
            throttledPeriods[g.index][i] += overrun;
        }
    }

    // ------------------------------------------------------------------------------------------------
    // The trace: what sched_switch, sched_waking/sched_wakeup, sched_migrate_task and the throttle markers of
    // an ftrace recording would show, recorded as it happens. With tracing off each call returns at once.

    /**
     * sched_switch prev_state of a preempted task (or one parked by the throttle, or pushed away): "R", as 6.18
     * prints it for a user task preempted at its return to user, which calls schedule() with preempt false;
     * "R+" is only for a preemption inside the kernel (src/test/resources/ftrace: 89 R and 1 R+ on this machine).
     */
    public static final String PREEMPTED = "R";
    /** sched_switch prev_state of a task that sleeps or blocks (TASK_INTERRUPTIBLE). */
    public static final String SLEEPING = "S";
    /** sched_switch prev_state of an exiting thread (EXIT_DEAD). */
    public static final String DEAD = "X";
    /** The state of a switch_in of the task that was rq->curr before tasks parked at their pick ran. */
    public static final String RESUMED = "resumed";

    /** {@code t} becomes rq->curr of {@code cpu}. */
    public void switchIn(int cpu, Task t, long now) {
        if (tracing) {
            parkedOn.clear(cpu);
            event(now, "switch_in", cpu, t, null, -1, -1, null);
        }
    }

    /** {@code t} leaves rq->curr of {@code cpu} in {@code state} (PREEMPTED, SLEEPING, DEAD). */
    public void switchOut(int cpu, Task t, String state, long now) {
        if (tracing) {
            parkedOn.clear(cpu);
            event(now, "switch_out", cpu, t, state, -1, -1, null);
        }
    }

    /**
     * 6.18: schedule() on {@code cpu} picked {@code t} in a throttled hierarchy, which runs only to its return
     * to user and is parked there: in and out at once (the task the CPU ran, if any, was switched out for it).
     */
    public void parkedPick(int cpu, Task t, long now) {
        if (tracing) {
            event(now, "switch_in", cpu, t, null, -1, -1, null);
            event(now, "switch_out", cpu, t, PREEMPTED, -1, -1, null);
            parkedOn.set(cpu);
        }
    }

    /**
     * schedule() on {@code cpu} picked rq->curr {@code t} again: no switch, unless tasks parked by that pick
     * ran in between — then {@code t} comes back in (state "resumed": a switch the kernel makes and traces, but
     * that the model does not count for it).
     */
    public void resumed(int cpu, Task t, long now) {
        if (tracing && parkedOn.get(cpu)) {
            parkedOn.clear(cpu);
            event(now, "switch_in", cpu, t, RESUMED, -1, -1, null);
        }
    }

    /** try_to_wake_up() of {@code t} from {@code wakerCpu}: it was last on {@code from}, goes to {@code to}. */
    public void waking(Task t, int wakerCpu, int from, int to, long now) {
        if (tracing) {
            event(now, "waking", wakerCpu, t, null, from, to, null);
        }
    }

    /** wake_up_new_task() of {@code t} onto {@code cpu}. */
    public void wakeupNew(Task t, int cpu, long now) {
        if (tracing) {
            event(now, "wakeup_new", cpu, t, null, -1, cpu, null);
        }
    }

    /** Load balancing moves {@code t} from {@code from} to {@code to}. */
    public void migrate(Task t, int from, int to, long now) {
        if (tracing) {
            event(now, "migrate", to, t, null, from, to, null);
        }
    }

    /** {@code g}'s cfs_rq on {@code cpu} starts its throttled time (throttled_clock is set). */
    public void throttle(int cpu, TaskGroup g, long now) {
        if (tracing) {
            event(now, "throttle", cpu, null, null, -1, -1, g.path);
        }
    }

    /** {@code g}'s cfs_rq on {@code cpu} ends its throttled time. */
    public void unthrottle(int cpu, TaskGroup g, long now) {
        if (tracing) {
            event(now, "unthrottle", cpu, null, null, -1, -1, g.path);
        }
    }

    private void event(long now, String kind, int cpu, Task t, String state, int from, int to, String cgroup) {
        if (truncated) {
            return;
        }
        if (events.size() >= MAX_TRACE_EVENTS) {
            truncated = true;
            truncatedAtNs = now - originNs;
            return;
        }
        events.add(new Report.TraceEvent(now - originNs, kind, cpu, t == null ? -1 : pid(t), state, from, to, cgroup));
        if (t != null && !traced.get(t.id)) {
            traced.set(t.id);
            threads.add(new Report.TraceThread(pid(t), pid((Task) t.workload.tasks[0]), comm(t.workload.spec.name()),
                    t.workload.spec.name() + "/" + t.id, t.group.path, 120 + t.nice));
        }
    }

    /** A thread's pid in the trace: stable per task, clear of the idle task's 0 and of init's 1. */
    private static int pid(Task t) {
        return FIRST_PID + t.id;
    }

    /** The comm the kernel would keep: TASK_COMM_LEN - 1 characters, and no spaces (ftrace splits on them). */
    static String comm(String name) {
        String c = name.replaceAll("[\\s=]", "_");
        return c.length() <= 15 ? c : c.substring(0, 15);
    }

    public Report.TimeSeries timeSeries(TaskGroup[] groups, long endNs) {
        int n = (int) Math.max(1, Math.min(buckets, (endNs + bucketNs - 1) / bucketNs));
        List<Double> busy = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            busy.add(Math.round(busyNs[i] / bucketNs * 1000.0) / 1000.0);
        }
        List<Report.CgroupSeries> cg = new ArrayList<>();
        for (TaskGroup g : groups) {
            List<Long> use = new ArrayList<>(n);
            List<Long> thr = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                use.add(Math.round(usageNs[g.index][i] / 1000.0));
                thr.add(Math.round(throttledNs[g.index][i] / 1000.0));
            }
            // cpu.stat at each bucket's end, from the exact nanoseconds (the last is the report's cpu.stat).
            List<Long> usageUsec = new ArrayList<>(n);
            List<Long> nrPeriods = new ArrayList<>(n);
            List<Long> nrThrottled = new ArrayList<>(n);
            List<Long> throttledUsec = new ArrayList<>(n);
            long usage = 0;
            long throttled = 0;
            long p = 0;
            long pt = 0;
            for (int i = 0; i < n; i++) {
                usage += (long) usageNs[g.index][i];
                throttled += (long) throttledNs[g.index][i];
                p += periods[g.index] == null ? 0 : periods[g.index][i];
                pt += periods[g.index] == null ? 0 : throttledPeriods[g.index][i];
                usageUsec.add(usage / 1000);
                nrPeriods.add(p);
                nrThrottled.add(pt);
                throttledUsec.add(throttled / 1000);
            }
            cg.add(new Report.CgroupSeries(g.path, use, thr, usageUsec, nrPeriods, nrThrottled, throttledUsec));
        }
        return new Report.TimeSeries(bucketNs / 1000, busy, cg);
    }

    /** The recorded trace of a run that reached {@code endNs}. */
    public Report.Trace trace(long endNs) {
        return new Report.Trace(threads, events, truncated, truncated ? truncatedAtNs : endNs);
    }
}
