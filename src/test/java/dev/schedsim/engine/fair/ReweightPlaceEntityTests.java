package dev.schedsim.engine.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import java.util.EnumMap;
import org.junit.jupiter.api.Test;

/**
 * reweight_entity() of a queued group entity beside a root task. 6.7-6.12 and the revert of 6d71a9c61604 (v7.0,
 * 6.18.y after 6.18.44) keep the queue's average vruntime V and rescale the entity's lag (v' = V − vl·w/w'); from
 * 6d71a9c61604 (v6.13) to that revert — the validation machine's 6.18.44 — place_entity() places it again and
 * inflates the lag by (W + w')/W. For an entity other than curr that keeps V too; for curr, which avg_vruntime()
 * and the load always count, it counts curr twice — what the revert's message calls the bug — and V moves. The
 * group's entity is curr, 2 ms of vruntime behind the task, and its group's share halves (its queue holds 1024 of
 * the group's 2048).
 */
class ReweightPlaceEntityTests {
    private static final long MS = 1_000_000L;

    private final TaskGroup root = new TaskGroup(0, "/", null, 100, 1);
    private final TaskGroup pod = new TaskGroup(1, "/pod", root, 100, 1);
    private final CfsRq q = root.rq[0];
    private final Entity group = pod.se[0];
    private final Entity task = new Entity(null, null, 1024);

    private void queue(Entity e, long vruntime) {
        e.vruntime = vruntime;
        e.deadline = vruntime + 3 * MS;
        e.slice = 3 * MS;
        e.cfsRq = q;
        q.add(e);
        e.onRq = true;
        q.load += e.weight;
    }

    /** Reweights the group entity from 1024 to 512 under {@code profile}; returns V before and after. */
    private long[] reweight(String profile) {
        queue(task, 10 * MS);
        queue(group, 8 * MS);
        q.setCurr(group);
        pod.rq[0].load = 1024;
        pod.totalLoad = 2048;
        long before = Pick.avgVruntime(q);
        new GroupShares(KernelConfig.of(KernelProfiles.byName(profile), 250, new EnumMap<>(Feature.class), 5000))
                .updateCfsGroup(group);
        assertEquals(512, group.weight);
        return new long[] {before, Pick.avgVruntime(q)};
    }

    @Test
    void withoutTheReplacementTheAverageStays() {
        long[] v = reweight("6.6");
        assertEquals(v[0], v[1], 1);
        // the lag, w·(V − v), is what it was: 1024 · 1 ms before, 512 · 2 ms after
        assertEquals(2 * (v[0] - 8 * MS), v[1] - group.vruntime, 2);
    }

    @Test
    void the6_18_44ReweightInflatesTheLagAndMovesTheAverage() {
        long[] v = reweight("6.18");
        assertNotEquals(v[0], v[1]);
        // place_entity(): V with curr at its new weight, (1024 · 10 + 512 · 8)/1536 ms, minus the lag 1 ms scaled
        // to 2 ms and inflated by (1536 + 512)/1536
        long placedAt = (1024 * 10 * MS + 512 * 8 * MS) / 1536;
        long lag = (v[0] - 8 * MS) * 1024 / 512 * (1536 + 512) / 1536;
        assertEquals(placedAt - lag, group.vruntime, 2);
    }
}
