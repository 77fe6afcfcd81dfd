package dev.schedsim.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the time and the memory go in a JFR recording of {@code QuickBench} ({@code scripts/profile.sh}): the
 * benchmark thread's execution samples as each method's inclusive share (anywhere on the stack) and self share
 * (on top), its allocation rate (the weights of {@code jdk.ObjectAllocationSample}, which estimate the bytes
 * allocated) with the heaviest allocating frames and classes, and the collections (count, pauses).
 *
 * <p>Samples are those after {@code skipSeconds} of the recording (the JIT's warm-up runs), so that the profile is
 * of compiled code. Uses the JDK's own JFR reader: nothing to fetch.
 *
 * <p>usage: JfrTop FILE.jfr [TOP (default 40)] [SKIP_SECONDS (default 0)]
 */
public final class JfrTop {
    private JfrTop() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        double skip = args.length > 2 ? Double.parseDouble(args[2]) : 0;
        List<RecordedEvent> all = RecordingFile.readAllEvents(file);
        Instant start = all.stream().map(RecordedEvent::getStartTime).min(Instant::compareTo).orElseThrow();
        Instant from = start.plusMillis((long) (skip * 1000));
        Instant end = all.stream().map(RecordedEvent::getEndTime).max(Instant::compareTo).orElseThrow();
        double seconds = Duration.between(from, end).toNanos() / 1e9;

        Tally tally = new Tally();
        for (RecordedEvent e : all) {
            if (e.getStartTime().isBefore(from)) {
                continue;
            }
            switch (e.getEventType().getName()) {
                case "jdk.ExecutionSample" -> tally.executionSample(e);
                case "jdk.ObjectAllocationSample" -> tally.allocationSample(e);
                case "jdk.GarbageCollection" -> tally.collection(e);
                default -> {
                }
            }
        }
        tally.print(top, seconds, skip);
    }

    /** The benchmark thread's samples and the collections, counted event by event. */
    private static final class Tally {
        final Map<String, Long> incl = new HashMap<>();
        final Map<String, Long> self = new HashMap<>();
        final Map<String, Long> allocByFrame = new HashMap<>();
        final Map<String, Long> allocByClass = new HashMap<>();
        long samples;
        long allocBytes;
        int gcs;
        double gcPauseMs;
        double gcLongestMs;

        /** Each method once per sample where it is on the stack (inclusive), the top frame as self. */
        void executionSample(RecordedEvent e) {
            RecordedStackTrace st = e.getStackTrace();
            if (!benchThread(e.getThread("sampledThread")) || st == null) {
                return;
            }
            samples++;
            Set<String> seen = new HashSet<>();
            List<RecordedFrame> frames = st.getFrames();
            for (int i = 0; i < frames.size(); i++) {
                String m = name(frames.get(i));
                if (seen.add(m)) {
                    incl.merge(m, 1L, Long::sum);
                }
                if (i == 0) {
                    self.merge(m, 1L, Long::sum);
                }
            }
        }

        void allocationSample(RecordedEvent e) {
            if (!benchThread(e.getThread("eventThread"))) {
                return;
            }
            long w = e.getLong("weight");
            allocBytes += w;
            allocByClass.merge(e.getClass("objectClass").getName(), w, Long::sum);
            RecordedStackTrace st = e.getStackTrace();
            if (st != null) {
                // the first frame of the engine's own, not the JDK's collection or array copy
                String site = "?";
                for (RecordedFrame f : st.getFrames()) {
                    site = name(f);
                    if (site.startsWith("dev.schedsim")) {
                        break;
                    }
                }
                allocByFrame.merge(site, w, Long::sum);
            }
        }

        void collection(RecordedEvent e) {
            gcs++;
            gcPauseMs += e.getDuration("sumOfPauses").toNanos() / 1e6;
            gcLongestMs = Math.max(gcLongestMs, e.getDuration("longestPause").toNanos() / 1e6);
        }

        void print(int top, double seconds, double skip) {
            System.out.printf("%d execution samples of the benchmark thread over %.1f s (after %.0f s skipped)%n",
                    samples, seconds, skip);
            System.out.println("  incl   self  frame");
            List<Map.Entry<String, Long>> rows = new ArrayList<>(incl.entrySet());
            rows.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
            for (int i = 0; i < Math.min(top, rows.size()); i++) {
                String m = rows.get(i).getKey();
                System.out.printf("%5.1f%% %5.1f%%  %s%n", 100.0 * rows.get(i).getValue() / samples,
                        100.0 * self.getOrDefault(m, 0L) / samples, m);
            }
            System.out.println("top self:");
            List<Map.Entry<String, Long>> selfRows = new ArrayList<>(self.entrySet());
            selfRows.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
            for (int i = 0; i < Math.min(top / 2, selfRows.size()); i++) {
                System.out.printf("%5.1f%%  %s%n", 100.0 * selfRows.get(i).getValue() / samples,
                        selfRows.get(i).getKey());
            }
            System.out.printf("allocation: %.1f MB/s of the benchmark thread (%.0f MB sampled-weight total)%n",
                    allocBytes / 1e6 / seconds, allocBytes / 1e6);
            printTop("  by site", allocByFrame, allocBytes, 12);
            printTop("  by class", allocByClass, allocBytes, 8);
            System.out.printf("GC: %d collections, %.1f ms of pauses in all (%.2f %% of the time), longest %.1f ms%n",
                    gcs, gcPauseMs, gcPauseMs / 10 / seconds, gcLongestMs);
        }
    }

    private static void printTop(String title, Map<String, Long> m, long total, int n) {
        System.out.println(title + ":");
        List<Map.Entry<String, Long>> rows = new ArrayList<>(m.entrySet());
        rows.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        for (int i = 0; i < Math.min(n, rows.size()); i++) {
            System.out.printf("  %5.1f%%  %s%n", 100.0 * rows.get(i).getValue() / Math.max(1, total),
                    rows.get(i).getKey());
        }
    }

    /** The benchmark runs on the main thread. */
    private static boolean benchThread(RecordedThread t) {
        return t != null && "main".equals(t.getJavaName());
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }
}
