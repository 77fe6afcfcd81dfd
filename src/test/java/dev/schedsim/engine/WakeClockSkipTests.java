package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HardwareModel.wakeClockSkipNs: the kernel charges a woken task from its enqueue when its wakeup asked for the CPU
 * (wakeup_preempt()'s rq_clock_skip_update(): the idle task, or a current task it preempts, is queued with
 * need_resched set, so __schedule() keeps the enqueue's clock and set_next_entity() starts exec_start there). A
 * timed sleep's cost is derived from a sleeper that preempts, so it holds that interval; a sleeper that waits behind
 * a running task and is switched in at the tick pays the timed sleep's cost less it (docs/latency-validation.md,
 * "What a woken task is charged before it runs").
 */
class WakeClockSkipTests {
    static final long SKIP_NS = 5_000;

    /**
     * A 50/950 µs sleeper on CPU 1 of the quiet validation-2c for 2 s, alone or beside a thread that computes there
     * without end; its CPU a cycle, µs, and its cycles.
     */
    private static double[] sleeper(long skipNs, boolean beside, int nice) {
        TopologySpec t = Specs.preset("validation-2c");
        TopologySpec topo = t.withHardware(t.hardware().withHrtimerSleepNs(12_000).withWakeClockSkipNs(skipNs));
        List<WorkloadSpec> w = new ArrayList<>();
        w.add(WorkloadSpec.of("sleeper", "/", new WorkloadSpec.Periodic(1, 50, 950, 0)).withCpus(new int[] {1})
                .withNice(nice));
        if (beside) {
            w.add(WorkloadSpec.of("busy", "/", new WorkloadSpec.CpuBound(1, 0)).withCpus(new int[] {1}));
        }
        Report.WorkloadReport r = Specs.run(Specs.spec(topo, Specs.kernel("6.18"), List.of(), w, 2_000_000), 1)
                .workloads().get(0);
        double cycles = r.throughputPerSec() * 2;
        return new double[] {r.cpuUsec() / cycles, cycles};
    }

    @Test
    void aSleeperThatWaitsBehindARunningTaskPaysTheTimedSleepLessTheSkip() {
        // nice 19 beside a nice-0 hog: most of its wakeups do not preempt (its deadline is far) and it runs when
        // the hog's slice ends at a tick; those cycles cost the skip less, the others (it is eligible and picked at
        // its wakeup) the whole
        double[] base = sleeper(0, true, 19);
        double[] skip = sleeper(SKIP_NS, true, 19);
        assertTrue(base[1] >= 20, "the nice-19 sleeper completes cycles: " + base[1]);
        double less = base[0] - skip[0];
        assertTrue(less >= 0.5 * SKIP_NS / 1000.0 && less <= SKIP_NS / 1000.0 + 0.3,
                "CPU a cycle less by " + less + " µs of the skip's " + SKIP_NS / 1000.0 + " (without " + base[0] + ")");
    }

    @Test
    void aSleeperWhoseWakeupAsksForTheCpuPaysItWhole() {
        double[] alone = sleeper(0, false, 0);
        double[] aloneSkip = sleeper(SKIP_NS, false, 0);
        assertEquals(alone[0], aloneSkip[0], 0.01, "out of idle, CPU a cycle, µs");
        double[] preempting = sleeper(0, true, 0);
        double[] preemptingSkip = sleeper(SKIP_NS, true, 0);
        assertEquals(preempting[0], preemptingSkip[0], 0.3, "preempting a hog, CPU a cycle, µs");
    }
}
