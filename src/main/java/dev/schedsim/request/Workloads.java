package dev.schedsim.request;

import dev.schedsim.engine.spec.RunClock;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.engine.spec.WorkloadType;
import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest.SegmentRequest;
import dev.schedsim.request.SimulationRequest.WorkloadRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/** The rules of one {@code workloads[i]} entry by type, and its engine spec. */
public final class Workloads {
    /** Every workload type a request may give: the engine's and the imports (also the schema's enum). */
    static final java.util.List<String> TYPES = java.util.stream.Stream.concat(Arrays.stream(WorkloadType.values())
            .map(WorkloadType::wireName), java.util.stream.Stream.of(SimulationRequest.RT_APP, SimulationRequest.FTRACE)).toList();

    private Workloads() {
    }

    /** Checks {@code w}; returns it with defaults filled in. {@code cpus} is -1 when the topology is unknown. */
    public static WorkloadRequest check(WorkloadRequest w, String cgroup, String p, long cpus, Violations v) {
        WorkloadType type = w.type() == null ? null : WorkloadType.byWireName(w.type());
        if (w.type() == null) {
            v.add(p + ".type", "required, one of " + TYPES);
        } else if (type == null) {
            v.add(p + ".type", "unknown workload type '" + w.type() + "'; one of " + TYPES);
        }
        int nice = w.nice() == null ? 0 : w.nice();
        if (nice < -20 || nice > 19) {
            v.add(p + ".nice", "must be in -20..19");
        }
        if (w.cpus() != null) {
            affinity(w.cpus(), p + ".cpus", cpus, v);
        }
        nonNegative(w.cacheFootprintKb(), p + ".cacheFootprintKb", v);
        if (w.runClock() != null && RunClock.byWireName(w.runClock()) == null) {
            v.add(p + ".runClock", "unknown run clock '" + w.runClock() + "'; \"work\" (the default) or "
                    + "\"thread-cpu\"");
        }
        Integer threads = w.threads();
        Long sleepUs = w.sleepUs();
        Integer jitter = w.jitterPct();
        Long thinkUs = w.thinkUs();
        Integer messageLines = w.messageLines();
        Integer rps = w.rps();
        if (type != null) {
            switch (type) {
                case CPU_BOUND -> {
                    threads = threads(threads, p, v);
                    nonNegative(w.workUs(), p + ".workUs", v);
                }
                case PERIODIC -> {
                    threads = threads(threads, p, v);
                    positive(w.runUs(), p + ".runUs", true, v);
                    sleepUs = sleepUs == null ? 0L : sleepUs;
                    nonNegative(sleepUs, p + ".sleepUs", v);
                    jitter = jitter == null ? 0 : jitter;
                    if (jitter < 0 || jitter > 100) {
                        v.add(p + ".jitterPct", "must be in 0..100");
                    }
                }
                case REQUEST_RESPONSE -> {
                    positive(w.pairs(), p + ".pairs", true, v);
                    positive(w.serviceUs(), p + ".serviceUs", true, v);
                    thinkUs = thinkUs == null ? 0L : thinkUs;
                    nonNegative(thinkUs, p + ".thinkUs", v);
                    messageLines = messageLines == null ? 0 : messageLines;
                    messageLines(messageLines, p + ".messageLines", v);
                }
                case HACKBENCH -> {
                    positive(w.groups(), p + ".groups", true, v);
                    positive(w.fdsPerGroup(), p + ".fdsPerGroup", true, v);
                    positive(w.loops(), p + ".loops", true, v);
                    positive(w.messageUs(), p + ".messageUs", true, v);
                }
                case SCHBENCH -> {
                    positive(w.messageThreads(), p + ".messageThreads", true, v);
                    positive(w.workersPerMessageThread(), p + ".workersPerMessageThread", true, v);
                    positive(w.requestUs(), p + ".requestUs", true, v);
                    rps = rps == null ? 0 : rps;
                    nonNegative(rps, p + ".rps", v);
                }
                case TRACE -> {
                    threads = threads(threads, p, v);
                    segments(w.segments(), p + ".segments", v);
                }
                case PHASES -> {
                    threads = threads(threads, p, v);
                    PhaseRules.check(w, p, v);
                }
            }
        }
        return new WorkloadRequest(w.name(), cgroup, w.type(), threads, nice, w.cpus(), w.workUs(), w.runUs(),
                sleepUs, jitter, w.pairs(), w.serviceUs(), thinkUs, messageLines, w.groups(), w.fdsPerGroup(), w.loops(),
                w.messageUs(), w.messageThreads(), w.workersPerMessageThread(), w.requestUs(), rps, w.segments(),
                w.cacheFootprintKb(), w.phases(), w.loop(), w.delayUs(), w.stopUs(), null, null, null, null,
                w.runClock());
    }

    private static Integer threads(Integer threads, String p, Violations v) {
        int t = threads == null ? 1 : threads;
        if (t < 1) {
            v.add(p + ".threads", "must be >= 1");
        }
        return t;
    }

    private static void positive(Number n, String field, boolean required, Violations v) {
        if (n == null) {
            if (required) {
                v.add(field, "required (> 0)");
            }
        } else if (n.longValue() <= 0) {
            v.add(field, "must be > 0");
        }
    }

    /** A request-response message's cache lines: 0 (free) up to a 64 KiB message's. */
    private static void messageLines(int lines, String field, Violations v) {
        if (lines < 0 || lines > SimulationRequest.MAX_MESSAGE_LINES) {
            v.add(field, "must be in 0.." + SimulationRequest.MAX_MESSAGE_LINES + ": the cache lines a request or "
                    + "a response moves between CPUs (22 for TCP_RR over loopback, " + SimulationRequest
                    .MAX_MESSAGE_LINES + " for a 64 KiB message); leave it out for 0");
        }
    }

    private static void nonNegative(Number n, String field, Violations v) {
        if (n != null && n.longValue() < 0) {
            v.add(field, "must be >= 0");
        }
    }

    private static void segments(List<SegmentRequest> segments, String p, Violations v) {
        if (segments == null || segments.isEmpty()) {
            v.add(p, "required: a non-empty list of {\"runUs\": n} / {\"sleepUs\": n}");
            return;
        }
        for (int i = 0; i < segments.size(); i++) {
            SegmentRequest s = segments.get(i);
            String f = p + "[" + i + "]";
            if (s == null || (s.runUs() == null) == (s.sleepUs() == null)) {
                v.add(f, "must have exactly one of runUs and sleepUs");
            } else {
                nonNegative(s.runUs() != null ? s.runUs() : s.sleepUs(),
                        f + (s.runUs() != null ? ".runUs" : ".sleepUs"), v);
            }
        }
    }

    /** Parses a Linux CPU list ("0-3,8"); null after adding a violation. */
    static int[] affinity(String list, String field, long cpus, Violations v) {
        TreeSet<Integer> out = new TreeSet<>();
        String text = list.trim();
        if (text.isEmpty()) {
            v.add(field, "empty CPU list; omit the field to allow every CPU");
            return null;
        }
        for (String part : text.split(",")) {
            String s = part.trim();
            try {
                int dash = s.indexOf('-');
                int lo = Integer.parseInt(dash < 0 ? s : s.substring(0, dash).trim());
                int hi = dash < 0 ? lo : Integer.parseInt(s.substring(dash + 1).trim());
                if (lo < 0 || hi < lo) {
                    v.add(field, "bad range '" + s + "' in CPU list \"" + list + "\"");
                    return null;
                }
                if (cpus >= 0 && hi >= cpus) {
                    v.add(field, "CPU " + hi + " is outside the topology (CPUs 0-" + (cpus - 1) + ")");
                    return null;
                }
                if ((long) hi - lo > 1_000_000) {
                    v.add(field, "range '" + s + "' too large");
                    return null;
                }
                for (int c = lo; c <= hi; c++) {
                    out.add(c);
                }
            } catch (NumberFormatException e) {
                v.add(field, "must be a CPU list like \"0-3,8\"");
                return null;
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Threads the workload creates, without int overflow. */
    public static long threadCount(WorkloadRequest w) {
        WorkloadType type = WorkloadType.byWireName(w.type());
        return switch (type) {
            case REQUEST_RESPONSE -> 2L * w.pairs();
            case HACKBENCH -> 2L * w.groups() * w.fdsPerGroup();
            case SCHBENCH -> (long) w.messageThreads() * (1L + w.workersPerMessageThread());
            default -> w.threads();
        };
    }

    /** The engine spec of a checked workload (defaults filled in by {@link #check}). */
    public static WorkloadSpec spec(WorkloadRequest w) {
        int[] cpus = w.cpus() == null ? null : affinity(w.cpus(), "cpus", -1, new Violations());
        return new WorkloadSpec(w.name(), w.cgroup(), i(w.nice()), cpus, i(w.cacheFootprintKb()), kind(w),
                w.runClock() == null ? RunClock.WORK : RunClock.byWireName(w.runClock()));
    }

    /** The type's own parameters. */
    private static WorkloadSpec.Kind kind(WorkloadRequest w) {
        return switch (WorkloadType.byWireName(w.type())) {
            case CPU_BOUND -> new WorkloadSpec.CpuBound(i(w.threads()), l(w.workUs()));
            case PERIODIC -> new WorkloadSpec.Periodic(i(w.threads()), l(w.runUs()), l(w.sleepUs()), i(w.jitterPct()));
            case REQUEST_RESPONSE -> new WorkloadSpec.RequestResponse(i(w.pairs()), l(w.serviceUs()), l(w.thinkUs()),
                    null, i(w.messageLines()));
            case HACKBENCH -> new WorkloadSpec.Hackbench(i(w.groups()), i(w.fdsPerGroup()), i(w.loops()),
                    l(w.messageUs()));
            case SCHBENCH -> new WorkloadSpec.Schbench(i(w.messageThreads()), i(w.workersPerMessageThread()),
                    l(w.requestUs()), i(w.rps()));
            case TRACE -> new WorkloadSpec.Trace(i(w.threads()), segments(w.segments()));
            case PHASES -> PhaseRules.kind(w);
        };
    }

    private static List<WorkloadSpec.Segment> segments(List<SegmentRequest> requested) {
        List<WorkloadSpec.Segment> segments = new ArrayList<>();
        if (requested != null) {
            for (SegmentRequest s : requested) {
                segments.add(s.runUs() != null ? new WorkloadSpec.Segment(true, s.runUs())
                        : new WorkloadSpec.Segment(false, s.sleepUs()));
            }
        }
        return segments;
    }

    private static int i(Integer n) {
        return n == null ? 0 : n;
    }

    private static long l(Long n) {
        return n == null ? 0 : n;
    }
}
