package dev.schedsim.trace;

import dev.schedsim.engine.api.Report;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A run's trace as Chrome trace-event JSON (opens in Perfetto UI): one process per variant, a track per CPU with
 * its threads' run slices, and a track per CPU and cgroup with that cgroup's throttled intervals there — one
 * track each, because a parent and a child (or two cgroups) throttled at once on a CPU would otherwise give
 * overlapping slices on one track, which the format does not allow. A slice still open at the trace's end (a
 * thread running, a cgroup throttled) ends there: a run slice's {@code endState} is then null, a throttled one's
 * {@code open} true.
 */
public final class ChromeTrace {
    /** Throttle tracks come after the CPU tracks. */
    private static final int THROTTLE_TRACK = 100_000;

    private ChromeTrace() {
    }

    /** Adds the events of one variant ({@code pid} = its index) to {@code events}. */
    public static void addVariant(ArrayNode events, int pid, String label, Report.Trace trace, int cpus,
                                  List<String> cgroups) {
        meta(events, "process_name", pid, 0, label);
        for (int c = 0; c < cpus; c++) {
            meta(events, "thread_name", pid, c, "CPU " + c);
        }
        Map<Integer, Report.TraceThread> threads = new HashMap<>();
        for (Report.TraceThread t : trace.threads()) {
            threads.put(t.pid(), t);
        }
        TraceSlices slices = TraceSlices.of(trace, cpus);
        for (TraceSlices.Run r : slices.runs()) {
            Report.TraceThread t = threads.get(r.pid());
            ObjectNode n = slice(events, t == null ? "pid " + r.pid() : t.name(), "run", pid, r.cpu(),
                    r.startNs(), r.endNs());
            ObjectNode args = n.putObject("args");
            args.put("cgroup", t == null ? null : t.cgroup());
            args.put("pid", r.pid());
            args.put("endState", r.endState());
        }
        java.util.Set<Integer> named = new java.util.HashSet<>();
        for (TraceSlices.Throttled th : slices.throttled()) {
            int g = cgroups.indexOf(th.cgroup());
            int tid = THROTTLE_TRACK + (g < 0 ? cgroups.size() : g) * cpus + th.cpu();
            if (named.add(tid)) {
                meta(events, "thread_name", pid, tid, "CPU " + th.cpu() + " throttled " + th.cgroup());
            }
            slice(events, "throttled " + th.cgroup(), "throttled", pid, tid, th.startNs(), th.endNs())
                    .putObject("args").put("cgroup", th.cgroup()).put("open", th.open());
        }
    }

    private static ObjectNode slice(ArrayNode events, String name, String cat, int pid, int tid, long startNs,
                                    long endNs) {
        ObjectNode n = events.addObject();
        n.put("name", name);
        n.put("cat", cat);
        n.put("ph", "X");
        n.put("ts", startNs / 1000.0);
        n.put("dur", (endNs - startNs) / 1000.0);
        n.put("pid", pid);
        n.put("tid", tid);
        return n;
    }

    private static void meta(ArrayNode events, String what, int pid, int tid, String name) {
        ObjectNode n = events.addObject();
        n.put("name", what);
        n.put("ph", "M");
        n.put("pid", pid);
        n.put("tid", tid);
        n.putObject("args").put("name", name);
    }
}
