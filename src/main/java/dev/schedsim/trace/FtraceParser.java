package dev.schedsim.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ftrace text read back: the lines of /sys/kernel/tracing/trace (with or without the TGID column and the irq
 * flags) or of {@code trace-cmd report}. Comment lines ({@code #}) and blank lines are the header; a line that is
 * not an event (cut short, or another tool's output) is counted as skipped, never guessed at.
 */
public final class FtraceParser {
    /**
     * {@code <comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <sec>.<fraction>: <event>: <body>}. The comm may hold any
     * character, '-' included, so the pid is the last "-digits" that the rest of the line follows.
     */
    private static final Pattern LINE = Pattern.compile(
            "^\\s*(.+)-(\\d+)\\s+(?:\\(\\s*(\\d+|-+)\\)\\s+)?\\[(\\d+)\\]\\s+(?:([A-Za-z.]{3}[0-9a-fA-F.]{1,2})\\s+)?"
                    + "(\\d+)\\.(\\d{1,9}):\\s+([^\\s:]+):\\s?(.*)$");
    /** {@code key=value}, a value running to the next " key=" or " ==> " (comms may hold spaces). */
    private static final Pattern ARG = Pattern.compile("(\\w+)=(.*?)(?=\\s+\\w+=|\\s+==>\\s|\\s*$)");

    /** One event line; {@code tgid} is -1 when the line has none. */
    public record Event(String comm, int pid, int tgid, int cpu, long timeNs, String name, String body,
                        Map<String, String> args) {
        public String arg(String key) {
            return args.get(key);
        }

        public int intArg(String key) {
            String v = args.get(key);
            if (v == null) {
                throw new IllegalArgumentException(name + " at " + timeNs + " ns has no " + key);
            }
            return Integer.parseInt(v.trim());
        }
    }

    /** The events in file order, and the lines that were neither header nor event (their count, the first few). */
    public record Parsed(List<Event> events, int skippedLines, List<String> skippedSamples) {
    }

    private FtraceParser() {
    }

    public static Parsed parse(String text) {
        List<Event> events = new ArrayList<>();
        List<String> samples = new ArrayList<>();
        int skipped = 0;
        for (String line : text.split("\n", -1)) {
            String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
            if (l.isBlank() || l.startsWith("#") || l.startsWith("cpus=") || l.startsWith("version =")
                    || l.startsWith("CPU ")) {
                continue;
            }
            Event e = event(l);
            if (e == null) {
                skipped++;
                if (samples.size() < 5) {
                    samples.add(l.length() > 120 ? l.substring(0, 120) + "…" : l);
                }
            } else {
                events.add(e);
            }
        }
        return new Parsed(events, skipped, samples);
    }

    /** One line as an event, or null if it is not one. */
    public static Event event(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return null;
        }
        try {
            String fraction = m.group(7);
            long frac = Long.parseLong(fraction);
            for (int i = fraction.length(); i < 9; i++) {
                frac *= 10;
            }
            long ns = Long.parseLong(m.group(6)) * 1_000_000_000L + frac;
            String tgid = m.group(3);
            String body = m.group(9);
            Map<String, String> args = new LinkedHashMap<>();
            Matcher a = ARG.matcher(body);
            while (a.find()) {
                args.put(a.group(1), a.group(2));
            }
            return new Event(m.group(1).trim(), Integer.parseInt(m.group(2)),
                    tgid == null || tgid.startsWith("-") ? -1 : Integer.parseInt(tgid), Integer.parseInt(m.group(4)),
                    ns, m.group(8), body, args);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The comm the kernel keeps for a name: TASK_COMM_LEN - 1 characters, spaces and '=' made '_'. */
    public static String kernelComm(String name) {
        String c = name.replaceAll("[\\s=]", "_");
        return c.length() <= 15 ? c : c.substring(0, 15);
    }
}
