package dev.schedsim.engine.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RqClock;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import java.util.EnumMap;
import org.junit.jupiter.api.Test;

/**
 * migrate_task_rq_fair() as the root's averages see it (LoadTracking.migrateTaskLoad()): a task that ran 100 ms on
 * CPU 0 moves to the idle CPU 1. A root task takes its load, util and runnable along; a task of a cgroup takes its
 * util and runnable along too (propagate_entity_load_avg(): update_tg_cfs_util() and update_tg_cfs_runnable() copy
 * the group cfs_rq's averages up), while its load stays with the group entities' weights (update_tg_cfs_load()
 * re-estimates it from the group's own sums, which the model does not keep).
 */
class MigrateTaskLoadTests {
    private static final long MS = 1_000_000L;

    private final SimClock clock = new SimClock();
    private final TaskGroup root = new TaskGroup(0, "/", null, 100, 2);
    private final TaskGroup pod = new TaskGroup(1, "/pod", root, 100, 2);
    private final Cpu[] cpus = {new Cpu(0, 0, root.rq[0]), new Cpu(1, 1, root.rq[1])};
    private final LoadTracking pelt = new LoadTracking(cpus, clock,
            new Execution(KernelConfig.of(KernelProfiles.byName("6.18"), 250, new EnumMap<>(Feature.class), 5000),
                    clock, new Timers(2, 1, 1), new RqClock(clock)),
            HardwareModel.defaults(1));

    /** CPU 0 busy with {@code p} (its load at the root {@code rootLoad}) for 100 ms, CPU 1 idle; now = 100 ms. */
    private Task ranOnCpu0(TaskGroup group, long rootLoad) {
        Task p = new Task(1, null, 0, group, null, 0, 1024);
        for (long t = MS; t < 100 * MS; t += MS) {
            p.pelt.update(t, 1024, 1, true);
            cpus[0].pelt.update(t, rootLoad, 1, true);
            cpus[1].pelt.update(t, 0, 0, false);
        }
        p.pelt.update(100 * MS, 1024, 1, true);
        // The last millisecond through LoadTracking, which publishes what the balancer reads.
        cpus[0].root.load = rootLoad;
        cpus[0].root.hNrRunning = 1;
        cpus[0].busy = true;
        clock.now = 100 * MS;
        p.cpu = 0;
        pelt.updateLoadAvg(cpus[0]);
        pelt.updateLoadAvg(cpus[1]);
        return p;
    }

    @Test
    void aRootTaskTakesItsLoadUtilAndRunnableAlong() {
        Task p = ranOnCpu0(root, 1024);
        long util = p.pelt.utilAvg();
        long load = p.pelt.loadAvg();
        assertTrue(util > 800, "the task's util after 100 ms of running: " + util);
        long srcUtil = pelt.cpuUtil[0];
        long srcLoad = pelt.cpuLoad[0];
        pelt.migrateTaskLoad(p, cpus[0], cpus[1]);
        assertEquals(srcUtil - util, pelt.cpuUtil[0], 2);
        assertEquals(util, pelt.cpuUtil[1], 2);
        assertEquals(srcLoad - load, pelt.cpuLoad[0], 2);
        assertEquals(load, pelt.cpuLoad[1], 2);
    }

    @Test
    void aGroupedTaskTakesItsUtilAndRunnableAlongAndLeavesTheLoadToTheGroupEntities() {
        // The pod's entity weighed 512 at CPU 0's root while the task ran there.
        Task p = ranOnCpu0(pod, 512);
        long util = p.pelt.utilAvg();
        long runnable = p.pelt.runnableAvg();
        long srcUtil = pelt.cpuUtil[0];
        long srcRunnable = pelt.cpuRunnable[0];
        long srcLoad = pelt.cpuLoad[0];
        pelt.migrateTaskLoad(p, cpus[0], cpus[1]);
        // Before v4.10's propagation the idle CPU 1 would show nothing of the task until its own signal built up
        // over tens of milliseconds, and CPU 0 would go on showing it while it decayed.
        assertEquals(srcUtil - util, pelt.cpuUtil[0], 2, "CPU 0's util");
        assertEquals(util, pelt.cpuUtil[1], 2, "CPU 1's util");
        assertEquals(srcRunnable - runnable, pelt.cpuRunnable[0], 2, "CPU 0's runnable");
        assertEquals(runnable, pelt.cpuRunnable[1], 2, "CPU 1's runnable");
        assertEquals(srcLoad, pelt.cpuLoad[0], "CPU 0's load");
        assertEquals(0, pelt.cpuLoad[1], "CPU 1's load");
    }
}
