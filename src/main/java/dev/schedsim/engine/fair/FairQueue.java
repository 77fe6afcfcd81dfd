package dev.schedsim.engine.fair;

import dev.schedsim.engine.bandwidth.BandwidthHooks;
import dev.schedsim.engine.bandwidth.BandwidthPool;
import dev.schedsim.engine.bandwidth.Throttle;
import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.core.RunQueues;
import dev.schedsim.engine.core.Task;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.pelt.LoadTracking;
import dev.schedsim.engine.select.SisCache;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * Enqueue and dequeue through the group hierarchy (kernel/sched/fair.c): enqueue_task_fair() and
 * dequeue_task_fair() around one walk each way ({@link #enqueueEntities}, {@link #dequeueEntities}, as 6.12+
 * has dequeue_entities()), which the 6.1 throttle and unthrottle use for a group entity too; enqueue_entity()
 * with place_entity(), dequeue_entity() with the lag it saves.
 */
public final class FairQueue {
    /** ENQUEUE_WAKEUP: the entity was asleep (CFS sleeper credit; every level above the first). */
    public static final int ENQUEUE_WAKEUP = 1;
    /** ENQUEUE_INITIAL: a new task (wake_up_new_task()). */
    public static final int ENQUEUE_INITIAL = 2;

    private final SimClock clock;
    private final RunQueues rqs;
    private final LoadTracking pelt;
    private final BandwidthHooks hooks;
    private final Throttle throttle;
    private final BandwidthPool pool;
    private final GroupShares shares;
    private final SisCache sisCache;
    private final Tunables tunables;
    private final boolean eevdf; // EEVDF
    private final boolean taskThrottle; // TASK_BASED_THROTTLE

    public FairQueue(KernelConfig kernel, Tunables tunables, SimClock clock, RunQueues rqs, LoadTracking pelt,
                     BandwidthHooks hooks, Throttle throttle, BandwidthPool pool, GroupShares shares,
                     SisCache sisCache) {
        this.clock = clock;
        this.rqs = rqs;
        this.pelt = pelt;
        this.hooks = hooks;
        this.throttle = throttle;
        this.pool = pool;
        this.shares = shares;
        this.sisCache = sisCache;
        this.tunables = tunables;
        this.eevdf = kernel.on(Feature.EEVDF);
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
    }

    /** enqueue_task_fair(): the task's entity and every level above it that was not queued. */
    public void enqueueTask(Task p, int cpuId, int flags) {
        Cpu cpu = rqs.cpu(cpuId);
        hooks.charge(cpu, p.group.depth + 1);
        pelt.updateLoadAvg(cpu);
        pelt.updateLoadAvg(p);
        rqs.lruAddHead(cpu, p);
        Entity se = p.se;
        // (stored only when they change: a reference store costs a garbage-collector write barrier)
        CfsRq rq = p.group.rq[cpuId];
        if (se.cfsRq != rq) {
            se.cfsRq = rq;
            se.parent = p.group.isRoot() ? null : p.group.se[cpuId];
        }
        p.cpu = cpuId;
        enqueueEntities(se, cpu, 1, flags);
    }

    /**
     * The walk up from {@code se}, which carries {@code tasks} tasks: enqueue_entity() on every level not queued
     * yet (the first with {@code flags}, the rest as wakeups), then update_cfs_group() and h_nr_running on the
     * levels above; a throttled cfs_rq (6.1) stops the walk, else add_nr_running() at the root. Returns whether it
     * reached the root.
     */
    public boolean enqueueEntities(Entity se, Cpu cpu, int tasks, int flags) {
        for (; se != null; se = se.parent) {
            if (se.onRq) {
                break;
            }
            CfsRq q = se.cfsRq;
            enqueueEntity(q, se, flags);
            q.hNrRunning += tasks;
            if (!taskThrottle && q.throttled) { // TASK_BASED_THROTTLE (off: cfs_rq-based throttle)
                return false;
            }
            flags = ENQUEUE_WAKEUP;
        }
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (se.my != null) {
                shares.updateCfsGroup(se);
            }
            q.hNrRunning += tasks;
            if (!taskThrottle && q.throttled) { // TASK_BASED_THROTTLE
                return false;
            }
        }
        rqs.addNrRunning(cpu, tasks);
        return true;
    }

    /** dequeue_task_fair(). {@code sleep}: the task goes to sleep (DEQUEUE_SLEEP), not elsewhere. */
    public void dequeueTask(Task p, boolean sleep) {
        Cpu cpu = rqs.cpu(p.cpu);
        hooks.charge(cpu, p.group.depth + 1);
        pelt.updateLoadAvg(cpu);
        pelt.updateLoadAvg(p);
        rqs.lruRemove(cpu, p);
        if (!dequeueEntities(p.se, cpu, 1)) {
            return;
        }
        if (sleep) {
            sisCache.dequeued(p, cpu); // SIS_CACHE
        }
    }

    /**
     * dequeue_entities(): the walk up from {@code se}, which carries {@code tasks} tasks: dequeue_entity() on each
     * level that becomes empty (stopping at a level already dequeued), then update_cfs_group() and h_nr_running
     * on the levels above; a throttled cfs_rq (6.1) stops the walk, else sub_nr_running() at the root. Returns
     * whether it reached the root.
     */
    public boolean dequeueEntities(Entity se, Cpu cpu, int tasks) {
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (!se.onRq) {
                return false;
            }
            dequeueEntity(q, se);
            q.hNrRunning -= tasks;
            if (!taskThrottle && q.throttled) { // TASK_BASED_THROTTLE (off: cfs_rq-based throttle)
                return false;
            }
            if (q.load != 0) {
                se = se.parent;
                break;
            }
        }
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (se.my != null) {
                shares.updateCfsGroup(se);
            }
            q.hNrRunning -= tasks;
            if (!taskThrottle && q.throttled) { // TASK_BASED_THROTTLE
                return false;
            }
        }
        rqs.addNrRunning(cpu, -tasks);
        return true;
    }

    /** enqueue_entity(): update the group weight, place, queue, check_enqueue_throttle. */
    private void enqueueEntity(CfsRq q, Entity se, int flags) {
        if (se.my != null) {
            shares.updateCfsGroup(se);
        }
        placeEntity(q, se, flags);
        q.add(se);
        se.onRq = true;
        if (q.nr == 1 && q.parent != null) {
            rqs.cpu(q.cpu).addLeaf(q);
        }
        q.load += se.weight;
        if (!q.tg.isRoot()) {
            q.tg.totalLoad += se.weight;
        }
        Pick.updateMinVruntime(q);
        if (q.nr == 1 && !taskThrottle) { // TASK_BASED_THROTTLE (off)
            throttle.checkEnqueueThrottle(q);
        }
    }

    /** dequeue_entity(): save lag, unqueue, return_cfs_rq_runtime. */
    private void dequeueEntity(CfsRq q, Entity se) {
        if (eevdf) { // EEVDF
            // update_entity_lag()
            long lag = Pick.avgVruntime(q) - se.vruntime;
            long limit = Weights.calcDeltaFair(Math.max(2 * se.slice, tunables.tickNs()), se.weight);
            se.vlag = Math.max(-limit, Math.min(limit, lag));
        } else {
            se.vlag = se.vruntime - q.minVruntime;
        }
        q.remove(se);
        se.onRq = false;
        if (q.curr == se) {
            q.setCurr(null);
        }
        if (q.nr == 0) {
            q.lastActiveNs = clock.now;
        }
        q.load -= se.weight;
        if (!q.tg.isRoot()) {
            q.tg.totalLoad -= se.weight;
        }
        Pick.updateMinVruntime(q);
        pool.returnCfsRqRuntime(q);
    }

    /** place_entity(): EEVDF lag placement, or CFS min_vruntime placement with sleeper credit. */
    private void placeEntity(CfsRq q, Entity se, int flags) {
        boolean initial = se.fresh;
        se.fresh = false;
        if (eevdf) { // EEVDF
            long vslice = Weights.calcDeltaFair(se.slice, se.weight);
            long v = Pick.avgVruntime(q);
            long lag = 0;
            if (q.nr > 0 && !initial) {
                lag = se.vlag;
                long load = q.load;
                if (load > 0) {
                    lag = lag * (load + se.weight) / load;
                }
            }
            se.vruntime = v - lag;
            if (initial) {
                vslice /= 2; // PLACE_DEADLINE_INITIAL
            }
            se.deadline = se.vruntime + vslice;
        } else {
            long v = q.minVruntime;
            if (initial) {
                // START_DEBIT: new tasks start one vslice late.
                se.vruntime = v + Weights.calcDeltaFair(schedSliceOfNew(q, se), se.weight);
            } else {
                se.vruntime = v + se.vlag;
                if ((flags & ENQUEUE_WAKEUP) != 0) {
                    // GENTLE_FAIR_SLEEPERS: at most half a latency of sleeper credit.
                    se.vruntime = Math.max(se.vruntime, v - tunables.latencyNs() / 2);
                }
            }
        }
    }

    /** CFS sched_slice() of an entity about to join q (START_DEBIT's vslice). */
    private long schedSliceOfNew(CfsRq q, Entity se) {
        int nr = q.nr + 1;
        long slice = nr > 8 ? nr * tunables.minGranularityNs() : tunables.latencyNs();
        return slice * se.weight / (q.load + se.weight);
    }
}
