package dev.schedsim.trace;

import dev.schedsim.engine.api.Report;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's trace as ftrace text, the way /sys/kernel/tracing/trace prints it with the {@code record-tgid} option:
 * the header, then one line per event, {@code <comm>-<pid> (<tgid>) [<cpu>] <flags> <sec>.<usec>: <event>: <args>},
 * with the arguments as the kernel's TP_printk of each event writes them (include/trace/events/sched.h):
 * {@code sched_switch}, {@code sched_waking}, {@code sched_migrate_task}, {@code sched_wakeup},
 * {@code sched_wakeup_new}. A line's comm-pid is the task current on that CPU ({@code <idle>-0} when it idles;
 * the idle task is {@code swapper/N}, pid 0, in the events' fields).
 *
 * <p>Throttled intervals are trace-marker writes ({@code tracing_mark_write}) in the atrace format that Perfetto
 * reads as an async slice on a named track ({@code G|tgid|track|name|cookie} to begin, {@code H|tgid|track|cookie}
 * to end): one track per cgroup and CPU ("cpu1 throttled") in a process of its own per cgroup (comm
 * "cgroup/a", pid 900000 + the cgroup's index in the request), so intervals on one track never overlap.
 *
 * <p>A switch out followed on the same CPU, at the same nanosecond, by a switch in is one sched_switch from the
 * one to the other; otherwise the CPU goes to (and comes from) the idle task. A switch in while a task runs
 * (a task the 6.18 throttle parks at its pick takes the CPU from rq->curr for no time) switches that task out
 * preempted, and its own switch out later is not written again.
 */
public final class FtraceWriter {
    /** The pid of the first cgroup's marker process. */
    public static final int CGROUP_PID_BASE = 900_000;

    private final Report.Trace trace;
    private final int cpus;
    private final List<String> cgroups;
    private final Map<Integer, Report.TraceThread> threads = new HashMap<>();
    private final StringBuilder out = new StringBuilder();
    /** The pid current on each CPU as the lines go (0: idle). */
    private final int[] curr;

    private FtraceWriter(Report.Trace trace, int cpus, List<String> cgroups) {
        this.trace = trace;
        this.cpus = cpus;
        this.cgroups = cgroups;
        this.curr = new int[cpus];
        for (Report.TraceThread t : trace.threads()) {
            threads.put(t.pid(), t);
        }
    }

    /** The text of {@code trace} on a machine of {@code cpus} CPUs whose request has {@code cgroups} (paths). */
    public static String write(Report.Trace trace, int cpus, List<String> cgroups) {
        return new FtraceWriter(trace, cpus, cgroups).write();
    }

    private String write() {
        List<Report.TraceEvent> events = trace.events();
        int n = events.size();
        // Which switch out completes in the next switch in (same CPU, same time), and which comes after its task
        // was left already (a task parked at its pick took the CPU from it): a pass that follows each CPU's task.
        int[] mergedOut = new int[n];
        boolean[] silent = new boolean[n];
        int[] pendingOut = new int[cpus];
        int[] running = new int[cpus];
        java.util.Arrays.fill(pendingOut, -1);
        java.util.Arrays.fill(mergedOut, -1);
        for (int i = 0; i < n; i++) {
            Report.TraceEvent e = events.get(i);
            int c = e.cpu();
            if (e.kind().equals("switch_out")) {
                if (e.pid() != running[c]) {
                    silent[i] = true;
                } else {
                    pendingOut[c] = i;
                    running[c] = 0;
                }
            } else if (e.kind().equals("switch_in")) {
                int o = pendingOut[c];
                if (o >= 0 && events.get(o).timeNs() == e.timeNs()) {
                    mergedOut[i] = o;
                    silent[o] = true;
                }
                pendingOut[c] = -1;
                running[c] = e.pid();
            }
        }
        header(n);
        for (int i = 0; i < n; i++) {
            Report.TraceEvent e = events.get(i);
            switch (e.kind()) {
                case "switch_out" -> {
                    if (!silent[i]) {
                        sched_switch(e.cpu(), e.timeNs(), e.pid(), e.state(), 0);
                    }
                }
                case "switch_in" -> {
                    int o = mergedOut[i];
                    if (o >= 0) {
                        Report.TraceEvent prev = events.get(o);
                        sched_switch(e.cpu(), e.timeNs(), prev.pid(), prev.state(), e.pid());
                    } else {
                        int p = curr[e.cpu()];
                        sched_switch(e.cpu(), e.timeNs(), p, "R", e.pid());
                    }
                }
                case "waking" -> {
                    int target = e.fromCpu() >= 0 ? e.fromCpu() : e.toCpu();
                    line(e.cpu(), e.timeNs(), "d..3.", "sched_waking", task(e.pid()) + " target_cpu="
                            + String.format("%03d", target));
                    if (e.fromCpu() >= 0 && e.fromCpu() != e.toCpu()) {
                        migrate(e.cpu(), e.timeNs(), e.pid(), e.fromCpu(), e.toCpu());
                    }
                    line(e.cpu(), e.timeNs(), "d..3.", "sched_wakeup", task(e.pid()) + " target_cpu="
                            + String.format("%03d", e.toCpu()));
                }
                case "wakeup_new" -> line(e.cpu(), e.timeNs(), "d..3.", "sched_wakeup_new", task(e.pid())
                        + " target_cpu=" + String.format("%03d", e.toCpu()));
                case "migrate" -> migrate(e.cpu(), e.timeNs(), e.pid(), e.fromCpu(), e.toCpu());
                case "throttle" -> marker(e, "G|" + cgroupPid(e.cgroup()) + "|cpu" + e.cpu() + " throttled|throttled "
                        + e.cgroup() + "|" + (e.cpu() + 1));
                case "unthrottle" -> marker(e, "H|" + cgroupPid(e.cgroup()) + "|cpu" + e.cpu() + " throttled|"
                        + (e.cpu() + 1));
                default -> {
                }
            }
        }
        return out.toString();
    }

    private void header(int entries) {
        out.append("# tracer: nop\n#\n");
        out.append("# entries-in-buffer/entries-written: ").append(entries).append('/').append(entries)
                .append("   #P:").append(cpus).append('\n');
        if (trace.truncated()) {
            out.append("# (SchedSim: the trace was cut at ").append(timestamp(trace.endNs()))
                    .append(" when its event budget ran out)\n");
        }
        out.append("#\n");
        out.append("#                                          _-----=> irqs-off/BH-disabled\n");
        out.append("#                                         / _----=> need-resched\n");
        out.append("#                                        | / _---=> hardirq/softirq\n");
        out.append("#                                        || / _--=> preempt-depth\n");
        out.append("#                                        ||| / _-=> migrate-disable\n");
        out.append("#                                        |||| /     delay\n");
        out.append("#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n");
        out.append("#              | |           |       |   |||||     |         |\n");
    }

    /** sched_switch: TP_printk("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=..."). */
    private void sched_switch(int cpu, long ns, int prev, String state, int next) {
        line(cpu, ns, "d..2.", "sched_switch", "prev_comm=" + comm(prev, cpu) + " prev_pid=" + prev + " prev_prio="
                + prio(prev) + " prev_state=" + state + " ==> next_comm=" + comm(next, cpu) + " next_pid=" + next
                + " next_prio=" + prio(next));
        curr[cpu] = next;
    }

    private void migrate(int cpu, long ns, int pid, int from, int to) {
        line(cpu, ns, "d..3.", "sched_migrate_task", task(pid) + " orig_cpu=" + from + " dest_cpu=" + to);
    }

    /** The marker of a throttle start or end, written by the cgroup's marker process on that CPU. */
    private void marker(Report.TraceEvent e, String text) {
        int pid = cgroupPid(e.cgroup());
        prefix(FtraceParser.kernelComm("cgroup" + e.cgroup()), pid, String.valueOf(pid), e.cpu(), ".....", e.timeNs());
        out.append("tracing_mark_write: ").append(text).append('\n');
    }

    /** {@code comm=%s pid=%d prio=%d} of a task's wakeup and migration events. */
    private String task(int pid) {
        return "comm=" + comm(pid, 0) + " pid=" + pid + " prio=" + prio(pid);
    }

    private void line(int cpu, long ns, String flags, String event, String args) {
        int pid = curr[cpu];
        Report.TraceThread t = threads.get(pid);
        prefix(pid == 0 ? "<idle>" : comm(pid, cpu), pid, pid == 0 || t == null ? "-------"
                : String.valueOf(t.tgid()), cpu, flags, ns);
        out.append(event).append(": ").append(args).append('\n');
    }

    /** trace_print_context(): "%16s-%-7d (%7d) [%03d] " then the irq flags and "%5lu.%06lu: ". */
    private void prefix(String comm, int pid, String tgid, int cpu, String flags, long ns) {
        out.append(String.format("%16s-%-7d (%7s) [%03d] %s %12s: ", comm, pid, tgid, cpu, flags, timestamp(ns)));
    }

    private static String timestamp(long ns) {
        long us = ns / 1000;
        return String.format("%d.%06d", us / 1_000_000, us % 1_000_000);
    }

    private String comm(int pid, int cpu) {
        if (pid == 0) {
            return "swapper/" + cpu;
        }
        Report.TraceThread t = threads.get(pid);
        return t == null ? "<...>" : t.comm();
    }

    private int prio(int pid) {
        Report.TraceThread t = threads.get(pid);
        return t == null ? 120 : t.prio();
    }

    private int cgroupPid(String path) {
        int i = cgroups.indexOf(path);
        return CGROUP_PID_BASE + (i < 0 ? cgroups.size() : i);
    }
}
