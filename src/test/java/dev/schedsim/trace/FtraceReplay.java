package dev.schedsim.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * ftrace text replayed the way a trace viewer reads it, checking as it goes what such a viewer relies on: every
 * event line parses; each event's arguments have the kernel's TP_printk shape (include/trace/events/sched.h); a
 * sched_switch's prev is what that CPU ran (its line is the prev's, the idle task's is {@code <idle>-0}); the
 * marker slices of each track begin and end in turn (never overlap). Counts per pid what it saw.
 */
public final class FtraceReplay {
    private static final String COMM = "[^\\s=]{1,15}";
    private static final Pattern SWITCH = Pattern.compile("prev_comm=" + COMM + " prev_pid=\\d+ prev_prio=\\d+ "
            + "prev_state=(R\\+?|S|D|X) ==> next_comm=" + COMM + " next_pid=\\d+ next_prio=\\d+");
    private static final Pattern WAKE = Pattern.compile("comm=" + COMM + " pid=\\d+ prio=\\d+ target_cpu=\\d{3}");
    private static final Pattern MIGRATE = Pattern.compile("comm=" + COMM + " pid=\\d+ prio=\\d+ orig_cpu=\\d+ "
            + "dest_cpu=\\d+");
    private static final Pattern MARK = Pattern.compile("[GH]\\|\\d+\\|cpu\\d+ throttled\\|(throttled /\\S*\\|)?\\d+");

    /** Per pid: sched_switch lines that switched it out, sched_waking lines, migrations (either kind). */
    public final Map<Integer, Integer> switchesOut = new HashMap<>();
    public final Map<Integer, Integer> wakings = new HashMap<>();
    public final Map<Integer, Integer> migrations = new HashMap<>();
    /** Per pid: its comm. */
    public final Map<Integer, String> comms = new HashMap<>();
    /** prev_state values seen. */
    public final Map<String, Integer> states = new HashMap<>();
    /** Per throttle slice name ("throttled /a"): the ns of its finished slices. */
    public final Map<String, Long> throttledNs = new HashMap<>();
    public int lines;

    public static FtraceReplay of(String text, int cpus) {
        FtraceParser.Parsed p = FtraceParser.parse(text);
        assertThat(p.skippedLines()).as("unparsed lines: %s", p.skippedSamples()).isZero();
        FtraceReplay r = new FtraceReplay();
        r.replay(p.events(), cpus);
        return r;
    }

    private void replay(List<FtraceParser.Event> events, int cpus) {
        int[] curr = new int[cpus];
        Map<String, Long> open = new HashMap<>();
        Map<String, String> openName = new HashMap<>();
        long last = 0;
        for (FtraceParser.Event e : events) {
            lines++;
            assertThat(e.timeNs()).as("time order at %s", e).isGreaterThanOrEqualTo(last);
            last = e.timeNs();
            int c = e.cpu();
            assertThat(c).isBetween(0, cpus - 1);
            switch (e.name()) {
                case "sched_switch" -> {
                    assertThat(e.body()).matches(SWITCH);
                    int prev = e.intArg("prev_pid");
                    assertThat(prev).as("prev of %s is what cpu %d ran", e, c).isEqualTo(curr[c]);
                    assertThat(e.pid()).as("the line of %s is the prev's", e).isEqualTo(prev);
                    assertThat(e.comm()).isEqualTo(prev == 0 ? "<idle>" : e.arg("prev_comm"));
                    if (prev == 0) {
                        assertThat(e.arg("prev_comm")).isEqualTo("swapper/" + c);
                        assertThat(e.arg("prev_state")).isEqualTo("R");
                    } else {
                        switchesOut.merge(prev, 1, Integer::sum);
                        states.merge(e.arg("prev_state"), 1, Integer::sum);
                    }
                    comms.put(prev, e.arg("prev_comm"));
                    comms.put(e.intArg("next_pid"), e.arg("next_comm"));
                    curr[c] = e.intArg("next_pid");
                    assertThat(curr[c]).as("not a switch to itself: %s", e).isNotEqualTo(prev);
                }
                case "sched_waking", "sched_wakeup", "sched_wakeup_new" -> {
                    assertThat(e.body()).matches(WAKE);
                    assertThat(e.pid()).as("the line of %s is the task cpu %d runs", e, c).isEqualTo(curr[c]);
                    if (e.name().equals("sched_waking")) {
                        wakings.merge(e.intArg("pid"), 1, Integer::sum);
                    }
                }
                case "sched_migrate_task" -> {
                    assertThat(e.body()).matches(MIGRATE);
                    assertThat(e.intArg("orig_cpu")).isNotEqualTo(e.intArg("dest_cpu"));
                    migrations.merge(e.intArg("pid"), 1, Integer::sum);
                }
                case "tracing_mark_write" -> {
                    assertThat(e.body()).matches(MARK);
                    String[] f = e.body().split("\\|");
                    assertThat(Integer.parseInt(f[1])).isEqualTo(e.pid()).isEqualTo(e.tgid());
                    String track = f[1] + "|" + f[2];
                    if (f[0].equals("G")) {
                        assertThat(open).as("%s begins on a free track", e).doesNotContainKey(track);
                        open.put(track, e.timeNs());
                        openName.put(track, f[3]);
                    } else {
                        Long start = open.remove(track);
                        assertThat(start).as("%s ends a slice begun", e).isNotNull();
                        throttledNs.merge(openName.remove(track), e.timeNs() - start, Long::sum);
                    }
                }
                default -> throw new AssertionError("an event the export does not write: " + e);
            }
        }
    }

    /** The pids of the threads named {@code comm}. */
    public java.util.Set<Integer> pids(String comm) {
        java.util.Set<Integer> out = new java.util.HashSet<>();
        comms.forEach((pid, c) -> {
            if (c.equals(comm)) {
                out.add(pid);
            }
        });
        return out;
    }

    public int total(Map<Integer, Integer> m, java.util.Collection<Integer> pids) {
        return pids.stream().mapToInt(p -> m.getOrDefault(p, 0)).sum();
    }
}
