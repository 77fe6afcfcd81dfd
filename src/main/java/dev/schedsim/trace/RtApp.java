package dev.schedsim.trace;

import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest.CgroupRequest;
import dev.schedsim.request.SimulationRequest.EventRequest;
import dev.schedsim.request.SimulationRequest.PhaseRequest;
import dev.schedsim.request.SimulationRequest.TimerRequest;
import dev.schedsim.request.SimulationRequest.WorkloadRequest;
import dev.schedsim.request.SimulationRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * rt-app import: a workload {@code {"type": "rt-app", "rtApp": <rt-app JSON>}} becomes one {@code phases}
 * workload per task of the document (named after the task, prefixed "name." if the entry has a name; instance
 * threads) and the cgroups of their taskgroups, with rt-app's semantics (doc/tutorial.txt, rt-app.c): the task's
 * loop, delay, cpus, priority (the nice value of SCHED_OTHER), taskgroup, its phases with their loop and events
 * run, runtime, sleep and timer, and global.duration (every thread stops then; also the simulated time if the
 * request gives none). What SchedSim cannot simulate — another policy, a lock, a condition variable, a barrier,
 * memory or I/O work, a per-phase change of affinity, nice or taskgroup — is a 400 naming the task and the key;
 * nothing is dropped. Keys that only concern rt-app's logging and set-up (calibration, logdir, ftrace, ...) are
 * accepted and have no effect on a simulation.
 */
public final class RtApp {
    public static final String TYPE = SimulationRequest.RT_APP;
    /** rt-app's event names (rt-app_parse_config.c events[]): a key is an event if it starts with one, in order. */
    private static final List<String> EVENTS = List.of("lock", "unlock", "wait", "signal", "broad", "sync", "sleep",
            "runtime", "run", "timer", "suspend", "resume", "memrun", "mem", "iorun", "yield", "barrier", "fork",
            "sem_post", "sem_wait");
    /** Why each event SchedSim does not simulate cannot be. */
    private static final Map<String, String> UNSUPPORTED = Map.ofEntries(
            Map.entry("lock", "SchedSim has no mutexes"), Map.entry("unlock", "SchedSim has no mutexes"),
            Map.entry("wait", "SchedSim has no condition variables"),
            Map.entry("signal", "SchedSim has no condition variables"),
            Map.entry("broad", "SchedSim has no condition variables"),
            Map.entry("sync", "SchedSim has no condition variables"),
            Map.entry("suspend", "SchedSim has no suspend/resume between tasks"),
            Map.entry("resume", "SchedSim has no suspend/resume between tasks"),
            Map.entry("memrun", "SchedSim does not simulate memory work"),
            Map.entry("mem", "SchedSim does not simulate memory work"),
            Map.entry("iorun", "SchedSim does not simulate I/O"),
            Map.entry("yield", "SchedSim has no sched_yield()"),
            Map.entry("barrier", "SchedSim has no barriers"),
            Map.entry("fork", "SchedSim creates every thread at the start"),
            Map.entry("sem_post", "SchedSim has no semaphores"), Map.entry("sem_wait", "SchedSim has no semaphores"));
    /** global keys about rt-app's own logging and set-up, which change nothing the scheduler sees. */
    private static final Set<String> GLOBAL_SETUP = Set.of("calibration", "pi_enabled", "lock_pages", "logdir",
            "log_basename", "log_size", "ftrace", "gnuplot", "io_device", "mem_buffer_size", "cumulative_slack");
    /** Keys of a phase besides its events (and of a task besides these and its own). */
    private static final Set<String> PHASE_KEYS = Set.of("loop", "cpus", "policy", "priority", "taskgroup");
    private static final Set<String> TASK_KEYS = Set.of("instance", "delay", "phases");
    private static final Set<String> NOT_MODELLED = Set.of("nodes_membind", "util_min", "util_max", "dl-runtime",
            "dl-period", "dl-deadline", "period", "deadline");

    private RtApp() {
    }

    /** The request with each rt-app workload replaced by what it describes (violations added to {@code v}). */
    public static SimulationRequest expand(SimulationRequest r, Violations v) {
        if (r.workloads() == null || r.workloads().stream().noneMatch(w -> w != null && TYPE.equals(w.type()))) {
            return r;
        }
        List<WorkloadRequest> workloads = new ArrayList<>();
        List<SimulationRequest.ImportNote> notes = new ArrayList<>(r.imports() == null ? List.of() : r.imports());
        Set<String> taskgroups = new LinkedHashSet<>();
        Long durationMs = r.durationMs();
        for (int i = 0; i < r.workloads().size(); i++) {
            WorkloadRequest w = r.workloads().get(i);
            if (w == null || !TYPE.equals(w.type())) {
                workloads.add(w);
                continue;
            }
            Expansion x = new Expansion(w, "workloads[" + i + "].rtApp", v);
            x.expand();
            workloads.addAll(x.workloads);
            notes.add(new SimulationRequest.ImportNote("workloads[" + i + "]", TYPE,
                    x.workloads.stream().map(WorkloadRequest::name).toList(), x.skipped));
            taskgroups.addAll(x.taskgroups);
            if (durationMs == null && x.durationUs > 0) {
                durationMs = x.durationUs / 1000;
            }
        }
        List<CgroupRequest> cgroups = new ArrayList<>(r.cgroups() == null ? List.of() : r.cgroups());
        for (String tg : taskgroups) {
            if (cgroups.stream().noneMatch(c -> c != null && tg.equals(c.path()))) {
                cgroups.add(new CgroupRequest(tg, null, null, null));
            }
        }
        return new SimulationRequest(r.name(), r.topology(), r.kernel(), cgroups, workloads, durationMs, r.seed(),
                r.repetitions(), r.variants(), r.trace(), r.sweep(), r.kubernetes(), notes, r.warmup());
    }

    /** One rt-app document's expansion. */
    private static final class Expansion {
        private final WorkloadRequest entry;
        private final String p;
        private final Violations v;
        final List<WorkloadRequest> workloads = new ArrayList<>();
        final Set<String> taskgroups = new LinkedHashSet<>();
        /** What rt-app describes that creates nothing here (tasks of instance 0). */
        final Map<String, Integer> skipped = new java.util.TreeMap<>();
        long durationUs;
        /** Shared (not "unique") timer refs: the task that uses each. */
        private final Map<String, String> sharedTimers = new HashMap<>();

        Expansion(WorkloadRequest entry, String p, Violations v) {
            this.entry = entry;
            this.p = p;
            this.v = v;
        }

        public void expand() {
            JsonNode doc = entry.rtApp();
            if (doc == null || !doc.isObject()) {
                v.add(p, "required: an rt-app JSON document, {\"tasks\": {...}, \"global\": {...}}");
                return;
            }
            for (String key : doc.propertyNames()) {
                if (!key.equals("tasks") && !key.equals("global") && !key.equals("resources")) {
                    v.add(p + "." + key, "not an rt-app object: tasks, global (and resources, which rt-app ignores)");
                }
            }
            global(doc.get("global"));
            JsonNode tasks = doc.get("tasks");
            if (tasks == null || !tasks.isObject() || tasks.isEmpty()) {
                v.add(p + ".tasks", "required: an object of tasks, e.g. {\"t\": {\"run\": 1000, \"sleep\": 9000}}");
                return;
            }
            for (String name : tasks.propertyNames()) {
                task(name, tasks.get(name), p + ".tasks." + name);
            }
        }

        private void global(JsonNode g) {
            if (g == null) {
                return;
            }
            if (!g.isObject()) {
                v.add(p + ".global", "must be an object");
                return;
            }
            for (String key : g.propertyNames()) {
                JsonNode val = g.get(key);
                String f = p + ".global." + key;
                if (key.equals("duration")) {
                    if (!val.isIntegralNumber() || !val.canConvertToLong() || val.asLong() < -1 || val.asLong() == 0
                            || val.asLong() > 1_000_000_000L) {
                        v.add(f, "must be seconds (> 0), or -1 for none");
                    } else if (val.asLong() > 0) {
                        durationUs = Math.multiplyExact(val.asLong(), 1_000_000L);
                    }
                } else if (key.equals("default_policy")) {
                    if (!val.isString() || !val.asString().equals("SCHED_OTHER")) {
                        v.add(f, "'" + text(val) + "' cannot be simulated: SchedSim simulates the fair class "
                                + "(SCHED_OTHER) only");
                    }
                } else if (!GLOBAL_SETUP.contains(key)) {
                    v.add(f, "unknown rt-app global key; known: duration, default_policy, " + GLOBAL_SETUP);
                }
            }
        }

        private void task(String name, JsonNode t, String f) {
            String workload = entry.name() == null ? name : entry.name() + "." + name;
            if (!SimulationRequest.NAME.matcher(workload).matches()) {
                v.add(f, "task name '" + name + "' must match [A-Za-z0-9._-] (it names the workload '" + workload
                        + "', at most 64 characters)");
                return;
            }
            if (!t.isObject()) {
                v.add(f, "task '" + name + "' must be an object");
                return;
            }
            for (String key : t.propertyNames()) {
                if (!TASK_KEYS.contains(key) && !PHASE_KEYS.contains(key) && event(key) == null) {
                    unknownKey(key, name, f + "." + key);
                }
            }
            int instance = intValue(t, "instance", 1, 0, name, f);
            long delay = intValue(t, "delay", 0, 0, name, f);
            Settings task = settings(t, name, f, null);
            List<PhaseRequest> phases = new ArrayList<>();
            int loop;
            JsonNode ph = t.get("phases");
            if (ph != null) {
                if (!ph.isObject() || ph.isEmpty()) {
                    v.add(f + ".phases", "task '" + name + "': must be a non-empty object of phases");
                    return;
                }
                for (String key : t.propertyNames()) {
                    if (event(key) != null) {
                        v.add(f + "." + key, "task '" + name + "' has phases: its events go in a phase");
                    }
                }
                for (String phase : ph.propertyNames()) {
                    String pf = f + ".phases." + phase;
                    JsonNode po = ph.get(phase);
                    if (!po.isObject()) {
                        v.add(pf, "task '" + name + "': a phase must be an object");
                        continue;
                    }
                    for (String key : po.propertyNames()) {
                        if (!PHASE_KEYS.contains(key) && event(key) == null) {
                            unknownKey(key, name, pf + "." + key);
                        }
                    }
                    settings(po, name, pf, task);
                    phases.add(phase(po, name, pf, intValue(po, "loop", 1, -1, name, pf)));
                }
                loop = intValue(t, "loop", -1, -1, name, f);
            } else {
                // No phases: the task is its one phase; a loop given is that phase's, run once, else forever.
                boolean looped = t.get("loop") != null;
                phases.add(phase(t, name, f, looped ? intValue(t, "loop", 1, -1, name, f) : 1));
                loop = looped ? 1 : -1;
            }
            if (instance == 0) {
                skipped.merge("tasks of instance 0 (rt-app creates no thread for them)", 1, Integer::sum);
                return;
            }
            String cgroup = task.taskgroup != null ? task.taskgroup
                    : entry.cgroup() != null ? entry.cgroup() : "/";
            if (task.taskgroup != null) {
                taskgroups.add(task.taskgroup);
            }
            workloads.add(new WorkloadRequest(workload, cgroup, "phases", instance, task.nice, task.cpus, null, null,
                    null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                    entry.cacheFootprintKb(), phases, loop == 0 ? null : loop, delay == 0 ? null : delay,
                    durationUs > 0 ? durationUs : null, null, null, null, null, null));
            if (loop == 0) {
                v.add(f + ".loop", "task '" + name + "': loop 0 runs nothing; use -1 (forever) or >= 1");
            }
        }

        /** A phase's events, in order ({@code loop} -1: forever). */
        private PhaseRequest phase(JsonNode o, String task, String f, int loop) {
            List<EventRequest> events = new ArrayList<>();
            for (String key : o.propertyNames()) {
                String kind = event(key);
                if (kind == null) {
                    continue;
                }
                JsonNode val = o.get(key);
                String ef = f + "." + key;
                switch (kind) {
                    case "run", "runtime", "sleep" -> {
                        if (!val.isIntegralNumber() || !val.canConvertToLong() || val.asLong() < 0) {
                            v.add(ef, "task '" + task + "': " + kind + " must be an integer of µs (>= 0)");
                            continue;
                        }
                        long us = val.asLong();
                        events.add(kind.equals("run") ? new EventRequest(us, null, null, null)
                                : kind.equals("runtime") ? new EventRequest(null, us, null, null)
                                : new EventRequest(null, null, us, null));
                    }
                    case "timer" -> {
                        if (!val.isObject()) {
                            v.add(ef, "task '" + task + "': timer must be {\"ref\": name, \"period\": µs}");
                            continue;
                        }
                        for (String k : val.propertyNames()) {
                            if (!k.equals("ref") && !k.equals("period") && !k.equals("mode")) {
                                v.add(ef + "." + k, "task '" + task + "': a timer has ref, period and mode");
                            }
                        }
                        String ref = val.has("ref") ? text(val.get("ref")) : "unknown";
                        JsonNode period = val.get("period");
                        if (period == null || !period.isIntegralNumber() || !period.canConvertToLong()
                                || period.asLong() <= 0) {
                            v.add(ef + ".period", "task '" + task + "': the timer's period must be µs (> 0)");
                            continue;
                        }
                        if (!ref.startsWith("unique")) {
                            String other = sharedTimers.putIfAbsent(ref, task);
                            if (other != null && !other.equals(task)) {
                                v.add(ef + ".ref", "timer '" + ref + "' of task '" + task + "' is task '" + other
                                        + "''s too: a timer shared between tasks cannot be simulated; give each task "
                                        + "its own ref");
                            }
                        }
                        String mode = val.has("mode") ? text(val.get("mode")) : "relative";
                        events.add(new EventRequest(null, null, null, new TimerRequest(ref, period.asLong(), mode)));
                    }
                    default -> v.add(ef, "rt-app event '" + kind + "' of task '" + task + "' cannot be simulated: "
                            + UNSUPPORTED.get(kind));
                }
            }
            if (events.isEmpty()) {
                v.add(f, "task '" + task + "': no run, runtime, sleep or timer event");
            }
            return new PhaseRequest(loop == -1 ? Integer.MAX_VALUE : loop, events);
        }

        /** A task's or phase's policy, priority, cpus and taskgroup; a phase's must be its task's. */
        private Settings settings(JsonNode o, String task, String f, Settings ofTask) {
            Settings s = new Settings();
            JsonNode policy = o.get("policy");
            if (policy != null && !(policy.isString() && policy.asString().equals("SCHED_OTHER"))) {
                v.add(f + ".policy", "task '" + task + "': policy '" + text(policy) + "' cannot be simulated: SchedSim "
                        + "simulates the fair class (SCHED_OTHER) only");
            }
            JsonNode prio = o.get("priority");
            if (prio != null) {
                if (!prio.isIntegralNumber() || !prio.canConvertToInt() || prio.asInt() < -20 || prio.asInt() > 19) {
                    v.add(f + ".priority", "task '" + task + "': the priority of SCHED_OTHER is its nice value, "
                            + "-20..19");
                } else {
                    s.nice = prio.asInt();
                }
            }
            JsonNode cpus = o.get("cpus");
            if (cpus != null) {
                StringBuilder list = new StringBuilder();
                if (!cpus.isArray() || cpus.isEmpty()) {
                    v.add(f + ".cpus", "task '" + task + "': cpus must be a non-empty array of CPU numbers");
                } else {
                    for (JsonNode c : cpus) {
                        if (!c.isIntegralNumber() || !c.canConvertToInt() || c.asInt() < 0) {
                            v.add(f + ".cpus", "task '" + task + "': cpus must be CPU numbers (>= 0)");
                            break;
                        }
                        list.append(list.isEmpty() ? "" : ",").append(c.asInt());
                    }
                    s.cpus = list.toString();
                }
            }
            JsonNode tg = o.get("taskgroup");
            if (tg != null) {
                if (!tg.isString()) {
                    v.add(f + ".taskgroup", "task '" + task + "': taskgroup must be a cgroup path");
                } else if (!tg.asString().isEmpty() && !tg.asString().equals("/")) {
                    s.taskgroup = tg.asString().startsWith("/") ? tg.asString() : "/" + tg.asString();
                }
            }
            if (ofTask != null) {
                phaseChange(f, task, "priority", s.nice, ofTask.nice, prio != null);
                phaseChange(f, task, "cpus", s.cpus, ofTask.cpus, cpus != null);
                phaseChange(f, task, "taskgroup", s.taskgroup, ofTask.taskgroup, tg != null);
            }
            return s;
        }

        private void phaseChange(String f, String task, String key, Object phase, Object ofTask, boolean given) {
            if (given && !java.util.Objects.equals(phase, ofTask)) {
                v.add(f + "." + key, "task '" + task + "': a " + key + " that changes per phase cannot be simulated "
                        + "(a workload has one); set it on the task");
            }
        }

        private void unknownKey(String key, String task, String f) {
            if (NOT_MODELLED.contains(key)) {
                v.add(f, "task '" + task + "': '" + key + "' cannot be simulated (" + (key.startsWith("util")
                        ? "SchedSim has no utilization clamping" : key.equals("nodes_membind")
                        ? "SchedSim does not place memory" : "SchedSim has no SCHED_DEADLINE nor custom slices") + ")");
            } else {
                v.add(f, "task '" + task + "': unknown rt-app key '" + key + "'");
            }
        }

        private int intValue(JsonNode o, String key, int dflt, int min, String task, String f) {
            JsonNode n = o.get(key);
            if (n == null) {
                return dflt;
            }
            if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < min) {
                v.add(f + "." + key, "task '" + task + "': " + key + " must be an integer >= " + min);
                return dflt;
            }
            return n.asInt();
        }
    }

    /** A node as text: a string's value, anything else as JSON. */
    private static String text(JsonNode n) {
        return n.isString() ? n.asString() : n.toString();
    }

    /** The event an rt-app key names (by prefix, as rt-app matches it), or null. */
    static String event(String key) {
        for (String e : EVENTS) {
            if (key.startsWith(e)) {
                return e;
            }
        }
        return null;
    }

    private static final class Settings {
        Integer nice;
        String cpus;
        String taskgroup;
    }
}
