package dev.schedsim.engine.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import java.util.EnumMap;
import org.junit.jupiter.api.Test;

/**
 * select_idle_cpu() with SIS_PROP as 5.13-5.19 have it (the 5.15 profile): the depth from the waker CPU's
 * wake_avg_idle over its own LLC domain's avg_scan_cost; a scan whose depth runs out ({@code if (!--nr) return -1;})
 * returns before the accounting, so it neither lowers wake_avg_idle nor moves avg_scan_cost; one that finds a CPU
 * does both, on the waker's CPU only. One LLC of 8 CPUs without SMT; the waker runs on CPU 0, which is also the
 * target, and the scan starts at CPU 1.
 */
class SisPropScanTests {
    private final OneLlc m = new OneLlc();

    private SelectIdleSibling select() {
        KernelConfig k = KernelConfig.of(KernelProfiles.byName("5.15"), 250, new EnumMap<>(Feature.class), 5000);
        assertThat(k.on(Feature.SIS_UTIL)).isFalse();
        SelectIdleSibling s = m.select(k);
        busy(0); // the waker runs there
        return s;
    }

    /** A task runs on c: its rq and the LLC's idle cpumask say so (as RunQueues keeps them in step). */
    private void busy(int c) {
        m.cpus[c].nrRunning = 1;
        m.shared.syncIdle(c, false);
    }

    @Test
    void aCpuStartsWithTheIdleTimeItPredictsForWakeups() {
        Cpu cpu = new Cpu(0, 0, m.root.rq[0]);
        // sched_init(): wake_avg_idle = avg_idle = 2 × sysctl_sched_migration_cost
        assertThat(cpu.wakeAvgIdle).isEqualTo(cpu.avgIdle).isEqualTo(2 * Tunables.MIGRATION_COST_NS);
    }

    @Test
    void aScanWhoseDepthRunsOutIsNotAccounted() {
        SelectIdleSibling s = select();
        m.cpus[0].wakeAvgIdle = 0; // a busy waker: nr = 4, three CPUs examined
        for (int c = 1; c <= 3; c++) {
            busy(c);
        }
        assertThat(s.selectIdleSibling(m.wakee, 0, 0, 0)).isEqualTo(0); // nothing within the depth: the target
        assertThat(s.avgScanCost(0)).isZero();
        assertThat(m.cpus[0].overheadNs).isPositive(); // (the scan's time was still spent)
    }

    @Test
    void aScanThatFindsACpuIsAccountedOnTheWakersCpuOnly() {
        SelectIdleSibling s = select();
        m.cpus[0].wakeAvgIdle = 0;
        busy(1); // CPU 2 is the first idle one
        assertThat(s.selectIdleSibling(m.wakee, 0, 0, 0)).isEqualTo(2);
        long cost = m.cpus[0].overheadNs;
        assertThat(cost).isPositive();
        assertThat(s.avgScanCost(0)).isEqualTo(cost / 8);
        for (int c = 1; c < 8; c++) {
            assertThat(s.avgScanCost(c)).isZero();
        }
    }

    @Test
    void aFoundCpuLowersTheWakersPredictedIdleByTheScan() {
        SelectIdleSibling s = select();
        m.clock.now = 0; // wake_stamp 0: not aged
        long predicted = m.cpus[0].wakeAvgIdle;
        for (int c = 1; c <= 6; c++) {
            busy(c); // CPU 7 is the only idle one: the scan goes that far
        }
        assertThat(s.selectIdleSibling(m.wakee, 0, 0, 0)).isEqualTo(7);
        assertThat(m.cpus[0].wakeAvgIdle).isEqualTo(predicted - m.cpus[0].overheadNs);
    }
}
