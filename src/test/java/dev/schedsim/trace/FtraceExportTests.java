package dev.schedsim.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.Specs;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run's trace written as ftrace text and read back by the project's parser: every line in the kernel's format,
 * each CPU's switches consistent, the context switches, wakeups and migrations of every workload those of the
 * report, the throttle markers of every cgroup (a parent and its child throttled at once included) adding up
 * to throttled_usec, and the Chrome JSON of the same run without overlapping slices on any track.
 */
class FtraceExportTests {
    private static final List<String> CGROUPS = List.of("/", "/p", "/p/c", "/q");

    private static EngineSpec spec(String kernel) {
        List<CgroupSpec> cgroups = List.of(CgroupSpec.unlimited("/", 100),
                new CgroupSpec("/p", 60_000, 100_000, 0, 100), new CgroupSpec("/p/c", 15_000, 50_000, 0, 100),
                new CgroupSpec("/q", 20_000, 100_000, 0, 100));
        List<WorkloadSpec> w = List.of(WorkloadSpec.cpuBound("child", "/p/c", 2, 0),
                WorkloadSpec.cpuBound("parent", "/p", 1, 0),
                WorkloadSpec.periodic("a name with spaces, long", "/q", 2, 2_000, 3_000),
                WorkloadSpec.periodic("nice", "/", 1, 500, 1_500).withNice(5));
        return new EngineSpec(Specs.noisy("validation-2c"), Specs.kernel(kernel), cgroups, w,
                2_000_000, true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"6.18", "6.1"})
    void theFtraceTextReadsBackAsTheRunWent(String kernel) {
        Report r = Engine.run(spec(kernel), 7, Long.MAX_VALUE, RunControl.NONE);
        Report.Trace t = r.trace();
        assertThat(t.truncated()).isFalse();
        String text = FtraceWriter.write(t, 2, CGROUPS);
        assertThat(text).startsWith("# tracer: nop\n");
        FtraceReplay replay = FtraceReplay.of(text, 2);
        for (Report.WorkloadReport w : r.workloads()) {
            Set<Integer> pids = t.threads().stream().filter(th -> th.name().startsWith(w.name() + "/"))
                    .map(Report.TraceThread::pid).collect(Collectors.toSet());
            assertThat(pids).isNotEmpty();
            // (a task picked again after tasks parked at their pick ran meanwhile is switched back in: a switch the
            // kernel makes that the model does not count)
            long resumed = t.events().stream().filter(e -> "resumed".equals(e.state()) && pids.contains(e.pid()))
                    .count();
            assertThat(replay.total(replay.switchesOut, pids)).as(w.name() + " switches")
                    .isEqualTo(w.contextSwitches() + resumed);
            assertThat(replay.total(replay.wakings, pids)).as(w.name() + " wakeups").isEqualTo(w.wakeups());
            assertThat(replay.total(replay.migrations, pids)).as(w.name() + " migrations").isEqualTo(w.migrations());
        }
        assertThat(replay.states).containsKeys("R", "S");
        assertThat(replay.states.keySet()).isSubsetOf("R", "S", "X");
        // comm as the kernel keeps it; prio 120 + nice
        assertThat(text).contains("comm=a_name_with_spa pid=").contains("comm=nice pid=1005 prio=125");
        // Each throttled cgroup's finished marker slices add up to its throttled_usec.
        for (String path : List.of("/p", "/p/c", "/q")) {
            long usec = r.cgroups().stream().filter(c -> c.path().equals(path)).findFirst().orElseThrow().cpuStat()
                    .throttledUsec();
            assertThat(usec).as(path).isPositive();
            assertThat(replay.throttledNs.getOrDefault("throttled " + path, 0L) / 1000.0).as(path + " markers")
                    .isCloseTo(usec, within(50.0));
        }
        assertThat(parentAndChildThrottledAtOnce(t)).as("the case the per-cgroup tracks are for").isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"6.18", "6.1"})
    void theChromeTraceHasNoOverlappingSlicesOnATrack(String kernel) {
        Report.Trace t = Engine.run(spec(kernel), 7, Long.MAX_VALUE, RunControl.NONE).trace();
        tools.jackson.databind.node.ArrayNode events = tools.jackson.databind.node.JsonNodeFactory.instance
                .arrayNode();
        ChromeTrace.addVariant(events, 0, "v", t, 2, CGROUPS);
        java.util.Map<Integer, List<double[]>> tracks = new java.util.HashMap<>();
        events.forEach(e -> {
            if (e.path("ph").asString().equals("X")) {
                tracks.computeIfAbsent(e.path("tid").asInt(), k -> new ArrayList<>())
                        .add(new double[] {e.path("ts").asDouble(), e.path("dur").asDouble()});
            }
        });
        assertThat(tracks.keySet()).contains(0, 1).hasSizeGreaterThan(4);
        tracks.forEach((tid, slices) -> {
            slices.sort(java.util.Comparator.comparingDouble(s -> s[0]));
            for (int i = 1; i < slices.size(); i++) {
                assertThat(slices.get(i)[0]).as("track %d slice %d", tid, i)
                        .isGreaterThanOrEqualTo(slices.get(i - 1)[0] + slices.get(i - 1)[1] - 1e-6);
            }
        });
    }

    /** Whether /p and /p/c are both throttled on one CPU at some moment. */
    private static boolean parentAndChildThrottledAtOnce(Report.Trace t) {
        List<TraceSlices.Throttled> th = TraceSlices.of(t, 2).throttled();
        for (TraceSlices.Throttled a : th) {
            for (TraceSlices.Throttled b : th) {
                if (a.cpu() == b.cpu() && a.cgroup().equals("/p") && b.cgroup().equals("/p/c")
                        && a.startNs() < b.endNs() && b.startNs() < a.endNs()) {
                    return true;
                }
            }
        }
        return false;
    }
}
