package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HardwareModel.hrtimerReprogramNs (HrtimerBases.becomesFirst()): hrtimer_start_range_ns() programs the clock-event
 * device only when the new timer is its CPU's first to expire, so a sleep pays the reprogram when its timer comes
 * before the tick and every other sleeper's timer on that CPU, and not otherwise.
 */
class HrtimerReprogramTests {
    static final long REPROGRAM_NS = 10_000;

    /** {@code n} threads of {@code runUs}/{@code sleepUs} on CPU 1 of the quiet validation-2c, 2 s: CPU a cycle, µs. */
    private static double cycle(long reprogramNs, int n, long runUs, long sleepUs) {
        TopologySpec t = Specs.preset("validation-2c");
        TopologySpec topo = t.withHardware(t.hardware().withHrtimerReprogramNs(reprogramNs));
        Report r = Specs.run(Specs.spec(topo, Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.periodic("p", "/", n, runUs, sleepUs).withCpus(new int[] {1})), 2_000_000), 1);
        Report.WorkloadReport w = r.workloads().get(0);
        return w.cpuUsec() / (w.throughputPerSec() * 2);
    }

    @Test
    void aLoneThreadsShortSleepArmsTheFirstTimer() {
        // an 800 µs sleep comes before the next tick (every 4 ms at HZ 250) about four times in five
        double extra = cycle(REPROGRAM_NS, 1, 200, 800) - cycle(0, 1, 200, 800);
        double reprogramUs = REPROGRAM_NS / 1000.0;
        assertTrue(extra > 0.6 * reprogramUs && extra < 0.95 * reprogramUs,
                "a lone 200/800 µs thread pays " + extra + " µs a cycle for a " + reprogramUs + " µs reprogram");
    }

    @Test
    void aSleepLongerThanTheTickArmsBehindIt() {
        // the tick runs while the thread does, and its next expiry is at most 4 ms away: a 5 ms sleep never leads
        assertEquals(cycle(0, 1, 200, 5_000), cycle(REPROGRAM_NS, 1, 200, 5_000), 0.05,
                "a lone 200/5000 µs thread's CPU a cycle without and with the reprogram's cost");
    }

    @Test
    void sleepersSharingACpuArmBehindEachOther() {
        // four 200/800 µs threads take turns: each sleep's timer expires after the others' already armed
        double extra = cycle(REPROGRAM_NS, 4, 200, 800) - cycle(0, 4, 200, 800);
        assertTrue(extra < 0.25 * REPROGRAM_NS / 1000.0,
                "four 200/800 µs threads on one CPU pay " + extra + " µs a cycle for the reprogram");
    }
}
