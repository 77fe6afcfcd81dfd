package dev.schedsim.trace;

import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest.ImportNote;
import dev.schedsim.request.SimulationRequest.SegmentRequest;
import dev.schedsim.request.SimulationRequest.WorkloadRequest;
import dev.schedsim.request.SimulationRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * ftrace import: a workload {@code {"type": "ftrace", "ftrace": "<trace text>", "select": [...], "cgroupMap":
 * {...}}} becomes one trace workload per selected thread (dev.schedsim.trace.FtraceImport: its runs and sleeps as
 * the recording shows them), named {@code <comm>-<pid>}, nice from its prio, in the cgroup of the first
 * {@code cgroupMap} pattern its comm or pid matches. The accepted request's {@code imports} says what each
 * import became and what it skipped.
 */
public final class FtraceWorkloads {
    public static final String TYPE = SimulationRequest.FTRACE;

    private FtraceWorkloads() {
    }

    public static SimulationRequest expand(SimulationRequest r, Violations v) {
        if (r.workloads() == null || r.workloads().stream().noneMatch(w -> w != null && TYPE.equals(w.type()))) {
            return r;
        }
        List<WorkloadRequest> workloads = new ArrayList<>();
        List<ImportNote> notes = new ArrayList<>(r.imports() == null ? List.of() : r.imports());
        for (int i = 0; i < r.workloads().size(); i++) {
            WorkloadRequest w = r.workloads().get(i);
            if (w == null || !TYPE.equals(w.type())) {
                workloads.add(w);
                continue;
            }
            String p = "workloads[" + i + "]";
            if (w.ftrace() == null || w.ftrace().isBlank()) {
                v.add(p + ".ftrace", "required: the text of /sys/kernel/tracing/trace or of trace-cmd report");
                continue;
            }
            List<Pattern> select = patterns(w.select(), p + ".select", v);
            Map<Pattern, String> cgroups = new java.util.LinkedHashMap<>();
            if (w.cgroupMap() != null) {
                w.cgroupMap().forEach((k, c) -> cgroups.put(pattern(k), c));
            }
            FtraceImport.Result imported = FtraceImport.read(w.ftrace(), (pid, comm) -> select == null
                    || select.stream().anyMatch(s -> s.matcher(comm).matches() || s.matcher("" + pid).matches()));
            if (imported.threads().isEmpty()) {
                v.add(p + ".ftrace", "no selected thread ran in the trace (it needs sched_switch events"
                        + (select == null ? "" : " of a thread that select takes") + ")");
                continue;
            }
            List<String> names = new ArrayList<>();
            Map<String, Integer> skipped = new TreeMap<>(imported.skipped());
            for (FtraceImport.Thread t : imported.threads()) {
                String name = name(t);
                String cgroup = w.cgroup() != null ? w.cgroup() : "/";
                for (Map.Entry<Pattern, String> e : cgroups.entrySet()) {
                    if (e.getKey().matcher(t.comm()).matches() || e.getKey().matcher("" + t.pid()).matches()) {
                        cgroup = e.getValue();
                        break;
                    }
                }
                int nice = t.prio() >= 100 && t.prio() <= 139 ? t.prio() - 120 : 0;
                if (t.prio() < 100) {
                    skipped.merge("real-time threads imported as SCHED_OTHER (prio < 100)", 1, Integer::sum);
                }
                names.add(name);
                workloads.add(new WorkloadRequest(name, cgroup, "trace", 1, nice, null, null, null, null, null, null,
                        null, null, null, null, null, null, null, null, null, null, t.segments().stream()
                        .map(s -> s.run() ? new SegmentRequest(s.us(), null) : new SegmentRequest(null, s.us()))
                        .toList(), w.cacheFootprintKb()));
            }
            notes.add(new ImportNote(p, TYPE, names, skipped));
        }
        return new SimulationRequest(r.name(), r.topology(), r.kernel(), r.cgroups(), workloads, r.durationMs(),
                r.seed(), r.repetitions(), r.variants(), r.trace(), r.sweep(), r.kubernetes(), notes, r.warmup());
    }

    /** {@code <comm>-<pid>}, in the characters a workload name may hold. */
    private static String name(FtraceImport.Thread t) {
        String comm = t.comm().replaceAll("[^A-Za-z0-9._-]", "_");
        String suffix = "-" + t.pid();
        return (comm.length() + suffix.length() > 64 ? comm.substring(0, 64 - suffix.length()) : comm) + suffix;
    }

    private static List<Pattern> patterns(List<String> globs, String field, Violations v) {
        if (globs == null) {
            return null;
        }
        if (globs.isEmpty()) {
            v.add(field, "a list of pids or comm patterns; omit it to import every thread");
        }
        return globs.stream().map(FtraceWorkloads::pattern).toList();
    }

    /** A comm glob (* any characters, ? one) as a pattern. */
    private static Pattern pattern(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : (glob == null ? "" : glob).toCharArray()) {
            re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString());
    }
}
