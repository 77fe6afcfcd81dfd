package dev.schedsim.engine.balance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.Specs;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * task_hot() compares se.exec_start with the source queue's clock, and set_task_cpu() resets it: a migrated task is
 * not cache-hot until it runs again (migrate_task_rq_fair() up to 6.2, enqueue_entity() on ENQUEUE_MIGRATED since
 * 6.3; MIGRATED_TASK_COLD). hackbench's receivers, woken by a sender elsewhere, are often moved onto a busy CPU
 * (wake_affine() picks the waker's); without the reset they stay hot there for 500 µs after they last ran, and a
 * CPU going idle on another core cannot take them.
 */
class MigratedTaskColdTests {

    /** 5.15's hackbench at 16 groups on the ThunderX2, root cgroup, a short run (seed 1). */
    private static Report hackbench(boolean cold) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.MIGRATED_TASK_COLD, cold);
        EngineSpec s = Specs.spec(Specs.noisy("thunderx2-2n-28c-smt4"), Specs.kernel("5.15", 250, f), List.of(),
                List.of(WorkloadSpec.hackbench("hb", "/", 16, 20, 300, 4)), 100_000_000);
        return Specs.run(s, 1);
    }

    @Test
    void aMigratedWakeeCanBePulledAtOnce() {
        Report hot = hackbench(false);
        Report cold = hackbench(true);
        Report.SchedulerReport before = hot.scheduler();
        Report.SchedulerReport after = cold.scheduler();
        System.out.printf("MIGRATED_TASK_COLD off/on: newidle pulls %d -> %d of %d -> %d balances, idle %.1f -> %.1f %%%n",
                before.newidlePulls(), after.newidlePulls(), before.newidleBalances(), after.newidleBalances(),
                hot.cpus().idlePct(), cold.cpus().idlePct());
        double pullRateBefore = (double) before.newidlePulls() / before.newidleBalances();
        double pullRateAfter = (double) after.newidlePulls() / after.newidleBalances();
        assertTrue(pullRateAfter > pullRateBefore, "a newidle balance finds a task to pull more often: "
                + pullRateBefore + " -> " + pullRateAfter);
        assertTrue(cold.cpus().idlePct() < hot.cpus().idlePct(), "the CPUs idle less");
    }

    @Test
    void everyProfileFrom418HasIt() {
        assertTrue(!KernelProfiles.byName("3.2").features().get(Feature.MIGRATED_TASK_COLD),
                "3.2's set_task_cpu() has no migrate_task_rq hook");
        for (String p : List.of("4.18", "5.15", "5.16", "6.6", "6.18")) {
            assertTrue(KernelProfiles.byName(p).features().get(Feature.MIGRATED_TASK_COLD), p);
        }
    }
}
