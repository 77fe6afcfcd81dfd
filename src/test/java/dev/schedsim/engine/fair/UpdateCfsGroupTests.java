package dev.schedsim.engine.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.sched.Weights;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import java.util.EnumMap;
import org.junit.jupiter.api.Test;

/**
 * update_cfs_group()'s two early returns: a group whose queue on a CPU is empty keeps its entity's weight where
 * DELAY_DEQUEUE is (66951e4860d3 "sched/fair: Fix update_cfs_group() vs DELAY_DEQUEUE": a delayed group entity
 * competes at the weight it had), and a throttled hierarchy keeps it in every kernel (throttled_hierarchy()).
 * The group has tasks queued on CPU 1 only; its entity on CPU 0 weighs half its shares from before.
 */
class UpdateCfsGroupTests {
    private final TaskGroup root = new TaskGroup(0, "/", null, 100, 2);
    private final TaskGroup pod = new TaskGroup(1, "/pod", root, 100, 2);

    private Entity emptyOnCpu0() {
        pod.rq[1].load = 2048;
        pod.totalLoad = 2048;
        Entity se = pod.se[0];
        se.weight = 512;
        return se;
    }

    private static GroupShares shares(String profile) {
        return new GroupShares(KernelConfig.of(KernelProfiles.byName(profile), 250, new EnumMap<>(Feature.class),
                5000));
    }

    @Test
    void anEmptyGroupKeepsItsWeightWithDelayedDequeue() {
        Entity se = emptyOnCpu0();
        shares("6.18").updateCfsGroup(se);
        assertEquals(512, se.weight);
    }

    @Test
    void anEmptyGroupFallsToMinSharesBeforeIt() {
        Entity se = emptyOnCpu0();
        shares("6.6").updateCfsGroup(se);
        assertEquals(Weights.MIN_SHARES, se.weight);
    }

    @Test
    void aThrottledHierarchyKeepsItsWeight() {
        Entity se = emptyOnCpu0();
        pod.rq[0].load = 1024;
        pod.totalLoad += 1024;
        pod.rq[0].throttleCount = 1;
        shares("6.6").updateCfsGroup(se);
        assertEquals(512, se.weight);
        pod.rq[0].throttleCount = 0;
        shares("6.6").updateCfsGroup(se);
        assertEquals(1024 * 1024 / 3072, se.weight);
    }
}
