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
 * running when it ends ran to its last; a switch out with no switch in before it (tracefs loses one now and then)
 * counts the run from the thread's wakeup or preemption. sched_process_exit or a switch out dead (X, Z) ends the
 * thread. Lines
 * that are not events, events of other kinds and threads that never ran are skipped and listed.
 */
public final class FtraceImport {
    /** One imported thread: its segments in order (run, then sleep, ...; {@code us} each). */
    public record Thread(int pid, String comm, int prio, List<Segment> segments, long runNs, int wakeups) {
    }

    public record Segment(boolean run, long us) {
    }

    /** The threads, and what was skipped: per reason a count. */
    public record Result(List<Thread> threads, Map<String, Integer> skipped) {
    }

    private enum State { UNKNOWN, RUNNING, RUNNABLE, SLEEPING, DEAD }

    private static final class Track {
        final int pid;
        String comm;
        int prio = 120;
        State state = State.UNKNOWN;
        long since;
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
        for (FtraceParser.Event e : events) {
            try {
                switch (e.name()) {
                    case "sched_switch" -> {
                        Track out = track(tracks, e.intArg("prev_pid"), e.arg("prev_comm"), select);
                        if (out != null) {
                            out.prio = e.intArg("prev_prio");
                            if (out.state == State.RUNNABLE || out.state == State.SLEEPING) {
                                skipped.merge("switch outs with no switch in before them (a lost event: the run "
                                        + "is taken from the thread's wakeup or preemption)", 1, Integer::sum);
                            }
                            switchOut(out, e.arg("prev_state"), e.timeNs(), start);
                        }
                        Track in = track(tracks, e.intArg("next_pid"), e.arg("next_comm"), select);
                        if (in != null) {
                            in.prio = e.intArg("next_prio");
                            switchIn(in, e.timeNs(), start);
                        }
                    }
                    case "sched_waking", "sched_wakeup", "sched_wakeup_new" -> {
                        Track t = track(tracks, e.intArg("pid"), e.arg("comm"), select);
                        if (t != null) {
                            woken(t, e.timeNs(), start, !e.name().equals("sched_wakeup_new"));
                        }
                    }
                    case "sched_process_exit" -> {
                        Track t = tracks.get(e.intArg("pid"));
                        if (t != null && t.state != State.DEAD) {
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
                t.run += end - t.since; // (running when the trace ends)
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

    private static void switchIn(Track t, long now, long start) {
        switch (t.state) {
            case UNKNOWN -> {
                // runnable when the trace began: asleep until now, as far as the trace says
                if (now > start) {
                    t.sleep(now - start);
                }
            }
            case SLEEPING -> t.sleep(now - t.since); // (its wakeup was not recorded)
            case DEAD -> {
                return;
            }
            default -> {
            }
        }
        t.state = State.RUNNING;
        t.since = now;
    }

    private static void switchOut(Track t, String prevState, long now, long start) {
        if (t.state == State.DEAD) {
            return;
        }
        // (not seen switching in: it ran since its wakeup or preemption at most, since the trace began if unknown;
        // a thread seen asleep ran for no time we know of)
        t.run += t.state == State.SLEEPING ? 0 : now - (t.state == State.UNKNOWN ? start : t.since);
        String s = prevState == null ? "" : prevState.trim();
        if (s.startsWith("R")) {
            t.state = State.RUNNABLE;
            t.since = now;
        } else if (s.contains("X") || s.contains("Z")) {
            t.endRun();
            t.state = State.DEAD;
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
        t.since = now;
    }
}
