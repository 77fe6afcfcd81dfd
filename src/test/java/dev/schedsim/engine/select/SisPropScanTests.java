package dev.schedsim.engine.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.fair.SisCache;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RqClock;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;
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
    private final SimClock clock = new SimClock();
    private final Topology topo = new Topology(TopologySpec.uniform(1, 1, 1, 8, 1));
    private final TaskGroup root = new TaskGroup(0, "/", null, 100, 8);
    private final Cpu[] cpus = new Cpu[8];
    private final SchedDomainShared shared = new SchedDomainShared(topo);
    private final Task wakee = new Task(1, null, 0, root, null, 0, 1024);

    private SelectIdleSibling select() {
        KernelConfig k = KernelConfig.of(KernelProfiles.byName("5.15"), 250, new EnumMap<>(Feature.class), 5000);
        assertThat(k.on(Feature.SIS_UTIL)).isFalse();
        for (int c = 0; c < 8; c++) {
            cpus[c] = new Cpu(c, topo.coreOf(c), root.rq[c]);
        }
        busy(0); // the waker runs there
        Execution execution = new Execution(k, clock, new Timers(8, 1, 1), new RqClock(clock));
        return new SelectIdleSibling(k, HardwareModel.defaults(1), cpus, topo, shared, clock, execution,
                new SisCache(k, clock));
    }

    /** A task runs on c: its rq and the LLC's idle cpumask say so (as RunQueues keeps them in step). */
    private void busy(int c) {
        cpus[c].nrRunning = 1;
        shared.syncIdle(c, false);
    }

    @Test
    void aCpuStartsWithTheIdleTimeItPredictsForWakeups() {
        Cpu cpu = new Cpu(0, 0, root.rq[0]);
        // sched_init(): wake_avg_idle = avg_idle = 2 × sysctl_sched_migration_cost
        assertThat(cpu.wakeAvgIdle).isEqualTo(cpu.avgIdle).isEqualTo(2 * Tunables.MIGRATION_COST_NS);
    }

    @Test
    void aScanWhoseDepthRunsOutIsNotAccounted() {
        SelectIdleSibling s = select();
        cpus[0].wakeAvgIdle = 0; // a busy waker: nr = 4, three CPUs examined
        for (int c = 1; c <= 3; c++) {
            busy(c);
        }
        assertThat(s.selectIdleSibling(wakee, 0, 0, 0)).isEqualTo(0); // nothing within the depth: the target
        assertThat(s.avgScanCost(0)).isZero();
        assertThat(cpus[0].overheadNs).isPositive(); // (the scan's time was still spent)
    }

    @Test
    void aScanThatFindsACpuIsAccountedOnTheWakersCpuOnly() {
        SelectIdleSibling s = select();
        cpus[0].wakeAvgIdle = 0;
        busy(1); // CPU 2 is the first idle one
        assertThat(s.selectIdleSibling(wakee, 0, 0, 0)).isEqualTo(2);
        long cost = cpus[0].overheadNs;
        assertThat(cost).isPositive();
        assertThat(s.avgScanCost(0)).isEqualTo(cost / 8);
        for (int c = 1; c < 8; c++) {
            assertThat(s.avgScanCost(c)).isZero();
        }
    }

    @Test
    void aFoundCpuLowersTheWakersPredictedIdleByTheScan() {
        SelectIdleSibling s = select();
        clock.now = 0; // wake_stamp 0: not aged
        long predicted = cpus[0].wakeAvgIdle;
        for (int c = 1; c <= 6; c++) {
            busy(c); // CPU 7 is the only idle one: the scan goes that far
        }
        assertThat(s.selectIdleSibling(wakee, 0, 0, 0)).isEqualTo(7);
        assertThat(cpus[0].wakeAvgIdle).isEqualTo(predicted - cpus[0].overheadNs);
    }
}
