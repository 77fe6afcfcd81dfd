package dev.schedsim.engine.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A long run queue keeps its entities in a {@link Timeline} (deadline-sorted tree with the min-vruntime
 * augmentation) and a short one in an array it scans; the two must answer every pick the same way, ties
 * included, or a simulation's result would change with the length of its queues. Random operations on one
 * queue that grows and shrinks across both thresholds, checked after each against a plain scan of the queued
 * entities in enqueue order (the definition: __pick_eevdf() over the eligible entities, ties to the earlier
 * enqueue; the leftmost vruntime; update_min_vruntime()'s minimum).
 */
class TimelineTests {

    /** The queued entities in enqueue order, curr included: what the picks are defined over. */
    private final List<Entity> queued = new ArrayList<>();
    private final CfsRq q = new CfsRq(null, 0, null);

    @Test
    void treeAndScanAgreeOnEveryPickAcrossBothThresholds() {
        SplittableRandom rnd = new SplittableRandom(7);
        List<Entity> idle = new ArrayList<>();
        for (int i = 0; i < 3 * CfsRq.TREE_AT; i++) {
            idle.add(new Entity(null, null));
        }
        int treeChecks = 0;
        int arrayChecks = 0;
        int switches = 0;
        boolean wasTree = false;
        for (int step = 0; step < 60_000; step++) {
            // Drift the queue's length up and down through TREE_AT and ARRAY_AT.
            boolean growing = (step / 2_000) % 2 == 0;
            int op = rnd.nextInt(10);
            if (!idle.isEmpty() && (queued.isEmpty() || op < (growing ? 5 : 2))) {
                enqueue(idle.remove(rnd.nextInt(idle.size())), rnd);
            } else if (!queued.isEmpty() && op < 6) {
                idle.add(dequeue(queued.get(rnd.nextInt(queued.size()))));
            } else if (op < 8) {
                q.setCurr(queued.isEmpty() || rnd.nextInt(5) == 0 ? null
                        : queued.get(rnd.nextInt(queued.size())));
            } else if (!queued.isEmpty()) {
                changeKey(queued.get(rnd.nextInt(queued.size())), rnd);
            }
            if (q.treeMode != wasTree) {
                switches++;
                wasTree = q.treeMode;
            }
            check();
            if (q.treeMode) {
                treeChecks++;
            } else {
                arrayChecks++;
            }
        }
        assertTrue(treeChecks > 10_000 && arrayChecks > 10_000 && switches > 10,
                "the run must exercise both modes and the switches: tree " + treeChecks + ", array " + arrayChecks
                        + ", switches " + switches);
    }

    private void enqueue(Entity e, SplittableRandom rnd) {
        // Few distinct values, so that deadlines and vruntimes tie often.
        e.weight = 1 + rnd.nextInt(3) * 1023;
        e.vruntime = q.minVruntime + rnd.nextInt(40);
        e.deadline = e.vruntime + rnd.nextInt(40);
        e.vprot = rnd.nextBoolean() ? e.deadline : Long.MIN_VALUE;
        q.add(e);
        e.onRq = true;
        q.load += e.weight;
        queued.add(e);
    }

    private Entity dequeue(Entity e) {
        q.remove(e);
        e.onRq = false;
        if (q.curr == e) {
            q.setCurr(null);
        }
        q.load -= e.weight;
        queued.remove(e);
        return e;
    }

    /** update_curr() on curr, or reweight_entity() on any queued entity: vruntime and deadline move. */
    private void changeKey(Entity e, SplittableRandom rnd) {
        q.keyChanging(e);
        long dv = rnd.nextInt(30) - 5;
        q.sumWv += e.weight * dv;
        e.vruntime += dv;
        if (rnd.nextBoolean()) {
            e.deadline = e.vruntime + rnd.nextInt(40);
        }
        q.keyChanged(e);
        if (rnd.nextInt(4) == 0) {
            Pick.updateMinVruntime(q);
        }
    }

    private void check() {
        assertEquals(queued.size(), q.nr);
        if (queued.isEmpty()) {
            return;
        }
        assertSame(expectedEevdf(), Pick.pickEevdf(q), "pick_eevdf");
        assertSame(leftmost(null), Pick.pickNextEntity(q), "CFS pick");
        assertSame(leftmost(q.curr), Pick.pickFirstEntity(q), "leftmost other than curr");
        long min = Long.MAX_VALUE;
        for (Entity e : queued) {
            min = Math.min(min, e.vruntime);
        }
        assertEquals(min, q.minQueuedVruntime(), "smallest queued vruntime");
    }

    private boolean eligible(Entity e) {
        return (e.vruntime - q.minVruntime) * q.load <= q.sumWv;
    }

    private Entity expectedEevdf() {
        if (queued.size() == 1) {
            return queued.get(0);
        }
        Entity curr = q.curr;
        if (curr != null && (!curr.onRq || !eligible(curr))) {
            curr = null;
        }
        if (curr != null && curr.vruntime < curr.vprot) {
            return curr;
        }
        Entity best = null;
        for (Entity e : queued) {
            if (e != q.curr && eligible(e) && (best == null || e.deadline < best.deadline)) {
                best = e;
            }
        }
        if (best == null || (curr != null && curr.deadline < best.deadline)) {
            best = curr;
        }
        return best != null ? best : leftmost(null);
    }

    private Entity leftmost(Entity except) {
        Entity best = null;
        for (Entity e : queued) {
            if (e != except && (best == null || e.vruntime < best.vruntime)) {
                best = e;
            }
        }
        return best;
    }
}
