package dev.schedsim.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * ftrace text read as each selected thread's demand: the run and sleep segments of a trace workload. A run is the
 * thread's time on a CPU from its wakeup until it switches out asleep (prev_state S, D or another sleeping
 * state) — a switch out preempted (R, R+) only pauses it: runnable-but-waiting time is no demand; a sleep lasts
 * from that switch out to its next sched_waking / sched_wakeup (or, if none was recorded, its next switch in).
 * A thread's list begins at the trace's first event: what it did before its first event there is a sleep; a
 * thread running when the trace begins (its first event a switch out) ran from the trace's first event, and one
 * running when it ends ran to its last. A switch out dead (X, Z) ends the thread (one in sched_process_exit runs
 * its exit to it; one not running then ends there). Lines
 * that are not events, events of other kinds and threads that never ran are skipped and listed.
 *
 * <p>Switches tracefs did not record are inferred from what every line shows ({@link CpuOccupants}): a line's
 * task is current on its CPU, so a thread seen there (its own switch out, or a wakeup it makes) that was not seen
 * switching in began running after both its wakeup (or preemption) and the last event that showed another task on
 * that CPU. On this machine's Linux 6.18 guest tracefs at times records few of the switches out of idle (8 and 34
 * of about 250 a second in two of scripts/replay-compare.py's recordings, all in a third): such a run begins at
 * the later of the sched_waking and the idle CPU's last event, its sched_wakeup — 11 µs (median) before the
 * switch the kernel made, where one was recorded. Each inference is counted in {@link Result#skipped}.
 */
public final class FtraceImport {
    /** A run whose switch in was not recorded, begun when a CPU left idle for the thread woken onto it. */
    public static final String IDLE_EXIT = "runs begun at a wakeup onto an idle CPU with no sched_switch in recorded "
            + "(tracefs at times records few out of idle): each from the later of the wakeup and that CPU's last "
            + "event while idle";
    /** Any other run whose switch in was not recorded. */
    public static final String LOST_SWITCH_IN = "runs with no switch in recorded (a lost event): each from the later "
            + "of the thread's wakeup or preemption and its CPU's last event showing another task";
    /** A thread seen running whose wakeup was not recorded either. */
    public static final String LOST_WAKEUP = "runs with neither a wakeup nor a switch in recorded: each from its "
            + "CPU's last event showing another task (else from the event that showed it running); the sleep before "
            + "it ends there";
    /** A switch in of a thread seen running: its switch out was lost. */
    public static final String LOST_SWITCH_OUT = "switch ins of a thread seen running (its switch out was lost): "
            + "the run is taken to the last event that showed it running";

    /** One imported thread: its segments in order (run, then sleep, ...; {@code us} each). */
    public record Thread(int pid, String comm, int prio, List<Segment> segments, long runNs, int wakeups) {
    }

    public record Segment(boolean run, long us) {
    }

    /** The threads, and what was skipped or inferred: per reason a count. */
    public record Result(List<Thread> threads, Map<String, Integer> skipped) {
    }

    private enum State { UNKNOWN, RUNNING, RUNNABLE, SLEEPING, DEAD }

    private static final class Track {
        final int pid;
        String comm;
        int prio = 120;
        State state = State.UNKNOWN;
        /** RUNNING: since when it runs; RUNNABLE: since its wakeup or preemption; SLEEPING: since its switch out. */
        long since;
        /** RUNNING: the last event that showed it running. */
        long seen;
        /** RUNNABLE: after a wakeup (not a preemption). */
        boolean woken;
        /** Seen in sched_process_exit: if the trace ends before its switch out dead, it ran to its last event. */
        boolean exited;
        long run;
        long runNs;
        int wakeups;
        final List<Segment> segments = new ArrayList<>();

        Track(int pid, String comm) {
            this.pid = pid;
            this.comm = comm;
        }

        void sleep(long ns) {
            segments.add(new Segment(false, Math.max(1, Math.round(ns / 1000.0))));
        }

        void endRun() {
            if (run > 0) {
                segments.add(new Segment(true, Math.max(1, Math.round(run / 1000.0))));
                runNs += run;
            }
            run = 0;
        }
    }

    private FtraceImport() {
    }

    /** Imports the threads of {@code text} that {@code select} (pid, comm) takes. */
    public static Result read(String text, BiPredicate<Integer, String> select) {
        FtraceParser.Parsed parsed = FtraceParser.parse(text);
        Map<String, Integer> skipped = new TreeMap<>();
        if (parsed.skippedLines() > 0) {
            skipped.put("lines that are not events (cut short, or not ftrace)", parsed.skippedLines());
        }
        List<FtraceParser.Event> events = new ArrayList<>(parsed.events());
        events.sort(java.util.Comparator.comparingLong(FtraceParser.Event::timeNs)); // (stable: file order kept)
        Map<Integer, Track> tracks = new LinkedHashMap<>();
        if (events.isEmpty()) {
            return new Result(List.of(), skipped);
        }
        long start = events.get(0).timeNs();
        long end = events.get(events.size() - 1).timeNs();
        CpuOccupants cpus = new CpuOccupants();
        for (FtraceParser.Event e : events) {
            long now = e.timeNs();
            // The line's task is current on its CPU: a selected thread seen there runs, switched in or not.
            cpus.seen(e.cpu(), e.pid(), now);
            Track current = e.pid() == 0 ? null : tracks.get(e.pid());
            if (current != null) {
                running(current, e.cpu(), now, start, cpus, skipped);
            }
            try {
                switch (e.name()) {
                    case "sched_switch" -> {
                        int prev = e.intArg("prev_pid");
                        int next = e.intArg("next_pid");
                        Track out = track(tracks, prev, e.arg("prev_comm"), select);
                        if (out != null) {
                            out.prio = e.intArg("prev_prio");
                            running(out, e.cpu(), now, start, cpus, skipped); // (its first event)
                            switchOut(out, e.arg("prev_state"), now);
                        }
                        cpus.switched(e.cpu(), prev, next, now);
                        Track in = track(tracks, next, e.arg("next_comm"), select);
                        if (in != null) {
                            in.prio = e.intArg("next_prio");
                            switchIn(in, now, start, skipped);
                        }
                    }
                    case "sched_waking", "sched_wakeup", "sched_wakeup_new" -> {
                        Track t = track(tracks, e.intArg("pid"), e.arg("comm"), select);
                        if (t != null) {
                            woken(t, now, start, !e.name().equals("sched_wakeup_new"));
                        }
                    }
                    case "sched_process_exit" -> {
                        Track t = tracks.get(e.intArg("pid"));
                        if (t != null && t.state == State.RUNNING) {
                            t.exited = true; // (it runs its exit to its switch out dead)
                        } else if (t != null && t.state != State.DEAD) {
                            t.endRun();
                            t.state = State.DEAD;
                        }
                    }
                    default -> skipped.merge("events other than sched_switch, sched_waking, sched_wakeup(_new) and "
                            + "sched_process_exit (" + e.name() + ")", 1, Integer::sum);
                }
            } catch (IllegalArgumentException ex) {
                skipped.merge(e.name() + " events without the fields it needs", 1, Integer::sum);
            }
        }
        List<Thread> threads = new ArrayList<>();
        for (Track t : tracks.values()) {
            if (t.state == State.RUNNING) {
                // running when the trace ends (or, exited, when it was last seen)
                t.run += (t.exited ? t.seen : end) - t.since;
            }
            if (t.state != State.DEAD) {
                t.endRun();
            }
            if (t.runNs == 0) {
                skipped.merge("selected threads that never ran", 1, Integer::sum);
                continue;
            }
            threads.add(new Thread(t.pid, t.comm, t.prio, t.segments, t.runNs, t.wakeups));
        }
        return new Result(threads, skipped);
    }

    private static Track track(Map<Integer, Track> tracks, int pid, String comm, BiPredicate<Integer, String> select) {
        if (pid == 0) {
            return null; // the idle task
        }
        Track t = tracks.get(pid);
        if (t == null && comm != null && select.test(pid, comm)) {
            t = new Track(pid, comm);
            tracks.put(pid, t);
        }
        return t;
    }

    /**
     * {@code t} is current on {@code cpu} at {@code now}. Not seen switching in, it has run there since the later
     * of its wakeup or preemption (or the trace's start) and the CPU's last event showing another task.
     */
    private static void running(Track t, int cpu, long now, long start, CpuOccupants cpus,
                                Map<String, Integer> skipped) {
        long other = cpus.since(cpu);
        switch (t.state) {
            case RUNNING -> {
            }
            case DEAD -> {
                return;
            }
            case UNKNOWN -> {
                // running since the trace began, unless the CPU ran another task since: then switched in after
                t.since = Math.max(start, other);
                if (t.since > start) {
                    t.sleep(t.since - start);
                    skipped.merge(LOST_SWITCH_IN, 1, Integer::sum);
                }
            }
            case RUNNABLE -> {
                skipped.merge(t.woken && cpus.afterIdle(cpu) ? IDLE_EXIT : LOST_SWITCH_IN, 1, Integer::sum);
                t.since = Math.max(t.since, other); // (a run paused by a preemption goes on: t.run is kept)
            }
            case SLEEPING -> {
                // it woke, unrecorded, at most when the CPU last showed another task (or else when seen)
                long from = other > t.since ? other : now;
                if (from > t.since) {
                    t.sleep(from - t.since);
                }
                skipped.merge(LOST_WAKEUP, 1, Integer::sum);
                t.since = from;
            }
        }
        t.state = State.RUNNING;
        t.seen = now;
    }

    private static void switchIn(Track t, long now, long start, Map<String, Integer> skipped) {
        switch (t.state) {
            case UNKNOWN -> {
                // runnable when the trace began: asleep until now, as far as the trace says
                if (now > start) {
                    t.sleep(now - start);
                }
            }
            case SLEEPING -> t.sleep(now - t.since); // (its wakeup was not recorded)
            case RUNNING -> {
                // its switch out was lost: it ran to its last event seen running, then waited (a pause, as R)
                t.run += t.seen - t.since;
                skipped.merge(LOST_SWITCH_OUT, 1, Integer::sum);
            }
            case DEAD -> {
                return;
            }
            default -> {
            }
        }
        t.state = State.RUNNING;
        t.since = now;
        t.seen = now;
    }

    /** {@code t} (RUNNING, or DEAD) switches out at {@code now}. */
    private static void switchOut(Track t, String prevState, long now) {
        if (t.state == State.DEAD) {
            return;
        }
        t.run += now - t.since;
        String s = prevState == null ? "" : prevState.trim();
        if (s.contains("X") || s.contains("Z")) {
            t.endRun();
            t.state = State.DEAD;
        } else if (s.startsWith("R")) {
            t.state = State.RUNNABLE;
            t.woken = false;
            t.since = now;
        } else {
            t.endRun();
            t.state = State.SLEEPING;
            t.since = now;
        }
    }

    /** A wakeup ({@code counts}: not a new task's first): ends a sleep, or the unknown time before it. */
    private static void woken(Track t, long now, long start, boolean counts) {
        if (t.state == State.SLEEPING) {
            t.sleep(now - t.since);
        } else if (t.state == State.UNKNOWN) {
            if (now > start) {
                t.sleep(now - start);
            }
        } else {
            return; // (sched_wakeup after sched_waking, or a wake of a task not asleep)
        }
        if (counts) {
            t.wakeups++;
        }
        t.state = State.RUNNABLE;
        t.woken = true;
        t.since = now;
    }
}
