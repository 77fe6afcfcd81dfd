package dev.schedsim.trace;

import dev.schedsim.engine.api.Report;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A trace's events paired into intervals: each run slice of a thread on a CPU (switch_in to switch_out) and
 * each throttled interval of a cgroup's cfs_rq on a CPU (throttle to unthrottle). What is still open when the
 * trace ends (a thread running, a cgroup throttled) ends at the trace's end, with no end state.
 */
public record TraceSlices(List<Run> runs, List<Throttled> throttled) {

    /** A run slice; {@code endState} is sched_switch's prev_state at its end, null if it ran to the trace's end. */
    public record Run(int cpu, int pid, long startNs, long endNs, String endState) {
    }

    /** A throttled interval; {@code open} when it had not ended by the trace's end. */
    public record Throttled(int cpu, String cgroup, long startNs, long endNs, boolean open) {
    }

    public static TraceSlices of(Report.Trace trace, int cpus) {
        List<Run> runs = new ArrayList<>();
        List<Throttled> throttled = new ArrayList<>();
        int[] pid = new int[cpus];
        long[] since = new long[cpus];
        java.util.Arrays.fill(pid, -1);
        Map<String, Long> throttledSince = new HashMap<>();
        for (Report.TraceEvent e : trace.events()) {
            switch (e.kind()) {
                case "switch_in" -> {
                    if (pid[e.cpu()] >= 0) {
                        // (not left before: a model inconsistency; end it here as preempted)
                        runs.add(new Run(e.cpu(), pid[e.cpu()], since[e.cpu()], e.timeNs(), "R"));
                    }
                    pid[e.cpu()] = e.pid();
                    since[e.cpu()] = e.timeNs();
                }
                case "switch_out" -> {
                    if (pid[e.cpu()] == e.pid()) {
                        runs.add(new Run(e.cpu(), e.pid(), since[e.cpu()], e.timeNs(), e.state()));
                        pid[e.cpu()] = -1;
                    }
                }
                case "throttle" -> throttledSince.putIfAbsent(e.cpu() + " " + e.cgroup(), e.timeNs());
                case "unthrottle" -> {
                    Long start = throttledSince.remove(e.cpu() + " " + e.cgroup());
                    if (start != null) {
                        throttled.add(new Throttled(e.cpu(), e.cgroup(), start, e.timeNs(), false));
                    }
                }
                default -> {
                }
            }
        }
        for (int c = 0; c < cpus; c++) {
            if (pid[c] >= 0) {
                runs.add(new Run(c, pid[c], since[c], trace.endNs(), null));
            }
        }
        throttledSince.forEach((key, start) -> {
            int space = key.indexOf(' ');
            throttled.add(new Throttled(Integer.parseInt(key.substring(0, space)), key.substring(space + 1), start,
                    trace.endNs(), true));
        });
        throttled.sort(java.util.Comparator.comparingLong(Throttled::startNs).thenComparingInt(Throttled::cpu)
                .thenComparing(Throttled::cgroup));
        return new TraceSlices(runs, throttled);
    }
}
