package dev.schedsim.engine.fair;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.sched.Weights;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * Enqueue and dequeue through the group hierarchy (kernel/sched/fair.c): enqueue_task_fair() and
 * dequeue_task_fair() around one walk each way ({@link #enqueueEntities}, {@link #dequeueEntities}, as 6.12+
 * has dequeue_entities()), which the 6.1 throttle and unthrottle use for a group entity too; enqueue_entity()
 * with place_entity(), dequeue_entity() with the lag it saves; DELAY_DEQUEUE's delayed entities, finished when
 * picked ({@link #dequeueDelayed}) or requeued when woken ({@link #requeueDelayedTask}).
 */
public final class FairQueue {
    /** ENQUEUE_WAKEUP: the entity was asleep (CFS sleeper credit; every level above the first). */
    public static final int ENQUEUE_WAKEUP = 1;
    /** ENQUEUE_INITIAL: a new task (wake_up_new_task()). */
    public static final int ENQUEUE_INITIAL = 2;
    /** DEQUEUE_SLEEP: the task goes to sleep (SIS_CACHE records it; DELAY_DEQUEUE may keep it queued). */
    public static final int DEQUEUE_SLEEP = 1;
    /** DEQUEUE_DELAYED: a delayed entity's dequeue is finished (it was picked). */
    public static final int DEQUEUE_DELAYED = 2;
    /** DEQUEUE_SPECIAL: the task exits; never delayed. */
    public static final int DEQUEUE_SPECIAL = 4;
    /** DEQUEUE_THROTTLE: a throttle takes the entity off; never delayed, at any level. */
    public static final int DEQUEUE_THROTTLE = 8;

    private final SimClock clock;
    private final RunQueues rqs;
    private final LoadTracking pelt;
    private final Bandwidth bandwidth;
    private final GroupShares shares;
    private final SisCache sisCache;
    private final Tunables tunables;
    private final UpdateCurr updateCurr;
    private final boolean eevdf; // EEVDF
    private final boolean taskThrottle; // TASK_BASED_THROTTLE
    private final boolean delayDequeue; // DELAY_DEQUEUE
    private final boolean migratedTaskCold; // MIGRATED_TASK_COLD
    private final boolean lagClampMaxSlice; // LAG_CLAMP_MAX_SLICE

    public FairQueue(KernelConfig kernel, Tunables tunables, SimClock clock, RunQueues rqs, LoadTracking pelt,
                     Bandwidth bandwidth, GroupShares shares,
                     SisCache sisCache, UpdateCurr updateCurr) {
        this.clock = clock;
        this.updateCurr = updateCurr;
        this.rqs = rqs;
        this.pelt = pelt;
        this.bandwidth = bandwidth;
        this.shares = shares;
        this.sisCache = sisCache;
        this.tunables = tunables;
        this.eevdf = kernel.on(Feature.EEVDF);
        this.lagClampMaxSlice = kernel.on(Feature.LAG_CLAMP_MAX_SLICE);
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
        this.delayDequeue = eevdf && kernel.on(Feature.DELAY_DEQUEUE);
        this.migratedTaskCold = kernel.on(Feature.MIGRATED_TASK_COLD);
    }

    /**
     * migrate_task_rq_fair(), from set_task_cpu(): the task's load leaves its old CPU; and (MIGRATED_TASK_COLD) it
     * is no longer cache-hot for task_hot() until it runs again: "We have migrated, no longer consider this task
     * hot", se.exec_start = 0 — in migrate_task_rq_fair() up to 6.2, in enqueue_entity() on ENQUEUE_MIGRATED since
     * 6.3 ("sched/fair: Sanitize vruntime of entity being migrated"), the same moment here. A woken task moved to a
     * busy CPU can so be pulled again by the next balance, however recently it ran where it came from.
     */
    public void migrateTaskRqFair(Task p, int dst) {
        pelt.migrateTaskLoad(p, rqs.cpu(p.cpu), rqs.cpu(dst));
        if (migratedTaskCold) {
            p.lastRanNs = Task.NEVER_RAN;
        }
    }

    /** enqueue_task_fair(): the task's entity and every level above it that was not queued. */
    public void enqueueTask(Task p, int cpuId, int flags) {
        Cpu cpu = rqs.cpu(cpuId);
        bandwidth.charge(cpu, p.group.depth + 1);
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
        boolean updated = false;
        for (; se != null; se = se.parent) {
            if (se.onRq) {
                if (se.delayed) { // DELAY_DEQUEUE: a task joins a group entity still queued from a sleep
                    requeueDelayedEntity(se);
                }
                break;
            }
            CfsRq q = se.cfsRq;
            if (!updated && q.curr != null) {
                // enqueue_entity(): update_curr(cfs_rq) before anything is placed, so the woken entity is placed
                // against the average with curr's time up to now (against a stale V it would always be eligible
                // first). Only a level enqueue_entity() runs on: a delayed group entity requeued above is placed
                // against the stale V, as requeue_delayed_entity() does. (The model updates all of curr's levels
                // at once; those above this one are on curr's path and not delayed.)
                updateCurr.updateCurr(cpu);
                updated = true;
            }
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

    /** dequeue_task_fair() with DEQUEUE_* {@code flags}. */
    public void dequeueTask(Task p, int flags) {
        Cpu cpu = rqs.cpu(p.cpu);
        bandwidth.charge(cpu, p.group.depth + 1);
        updateCurr.updateCurr(cpu); // dequeue_entity(): update_curr() first
        pelt.updateLoadAvg(cpu);
        pelt.updateLoadAvg(p);
        int r = dequeueEntities(p.se, cpu, 1, flags);
        if ((flags & DEQUEUE_SLEEP) != 0) {
            sisCache.dequeued(p, cpu); // SIS_CACHE (a delayed sleeper leaves its CPU not empty)
        }
        if (r < 0) {
            return; // DELAY_DEQUEUE: still queued (and on cfs_tasks), until picked or woken
        }
        rqs.lruRemove(cpu, p);
    }

    /**
     * pick_next_entity() met a delayed entity: dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED) finishes its
     * dequeue (a task's sleep is now complete, __block_task()); its level may leave a group empty, whose entity
     * then dequeues as a sleep too.
     */
    public void dequeueDelayed(Entity se, Cpu cpu) {
        Task p = se.task;
        if (p != null) {
            pelt.updateLoadAvg(cpu);
            pelt.updateLoadAvg(p);
            rqs.lruRemove(cpu, p);
        }
        dequeueEntities(se, cpu, p != null ? 1 : 0, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
    }

    /**
     * ttwu_runnable() of a delayed task: enqueue_task_fair(ENQUEUE_DELAYED) requeues it where it is (no
     * select_task_rq(), so no migration). Returns false if the task was not delayed. Unlike enqueue_entity(),
     * this path does not update curr first: the lag is taken against curr's vruntime as of its last update
     * (a tick, or its switch-in), so a sleeper woken from the delayed state is credited with curr's time since
     * then once check_preempt_wakeup_fair() updates curr — measured: a nice-5 sleeper against a nice-0 hog
     * waits one cycle in 23 on the validation machine, where placing against an updated curr makes it one in 12.
     */
    public boolean requeueDelayedTask(Task p) {
        if (!p.se.delayed) {
            return false;
        }
        Cpu cpu = rqs.cpu(p.cpu);
        pelt.updateLoadAvg(cpu);
        pelt.updateLoadAvg(p);
        requeueDelayedEntity(p.se);
        return true;
    }

    /**
     * requeue_delayed_entity() with DELAY_ZERO: the entity's lag is taken again; if it became positive while it
     * waited it is dropped and the entity placed afresh at V.
     */
    private void requeueDelayedEntity(Entity se) {
        CfsRq q = se.cfsRq;
        updateEntityLag(q, se);
        if (se.vlag > 0) {
            q.remove(se);
            q.load -= se.weight; // (out of the average while placed, as __dequeue_entity() takes it out)
            se.vlag = 0;
            placeEntity(q, se, 0);
            q.load += se.weight;
            q.add(se);
            Pick.updateMinVruntime(q);
        }
        se.delayed = false;
        if (se.task != null) {
            rqs.cpu(q.cpu).nrDelayed--;
        }
    }

    /**
     * dequeue_entities(): the walk up from {@code se}, which carries {@code tasks} tasks: dequeue_entity() on each
     * level that becomes empty (stopping at a level already dequeued), then update_cfs_group() and h_nr_running
     * on the levels above; a throttled cfs_rq (6.1) stops the walk, else sub_nr_running() at the root. Returns 1
     * when it reached the root, 0 when it stopped below, −1 when the task itself was delayed (DELAY_DEQUEUE: a
     * sleeping entity that is not eligible stays queued; a group entity may be delayed the same way, and the
     * levels above it lose the tasks below).
     */
    public int dequeueEntities(Entity se, Cpu cpu, int tasks, int flags) {
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (!se.onRq) {
                return 0;
            }
            boolean delay = (flags & DEQUEUE_SLEEP) != 0 && (flags & (DEQUEUE_DELAYED | DEQUEUE_SPECIAL
                    | DEQUEUE_THROTTLE)) == 0;
            if (delayDequeue && delay && !Pick.entityEligible(q, se)) { // DELAY_DEQUEUE
                se.delayed = true;
                if (se.task != null) {
                    cpu.nrDelayed++;
                    return -1;
                }
                break;
            }
            dequeueEntity(q, se);
            if (se.delayed) { // finish_delayed_dequeue_entity(), DELAY_ZERO: no positive lag kept
                se.delayed = false;
                if (se.task != null) {
                    cpu.nrDelayed--;
                }
                se.vlag = Math.min(se.vlag, 0);
            }
            q.hNrRunning -= tasks;
            if (!taskThrottle && q.throttled) { // TASK_BASED_THROTTLE (off: cfs_rq-based throttle)
                return 0;
            }
            if (q.load != 0) {
                se = se.parent;
                break;
            }
            // (the group entity above leaves as a sleep: dequeue_entities() sets DEQUEUE_SLEEP)
            flags = (flags | DEQUEUE_SLEEP) & ~(DEQUEUE_DELAYED | DEQUEUE_SPECIAL);
        }
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (se.my != null) {
                shares.updateCfsGroup(se);
            }
            q.hNrRunning -= tasks;
            if (!taskThrottle && q.throttled) { // TASK_BASED_THROTTLE
                return 0;
            }
        }
        rqs.addNrRunning(cpu, -tasks);
        return 1;
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
            bandwidth.checkEnqueueThrottle(q);
        }
    }

    /** dequeue_entity(): save lag, unqueue, return_cfs_rq_runtime. */
    private void dequeueEntity(CfsRq q, Entity se) {
        if (eevdf) { // EEVDF
            updateEntityLag(q, se);
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
        bandwidth.returnCfsRqRuntime(q);
    }

    /** update_entity_lag(): V − v, clamped to the lag bound of its slice (or a tick). */
    private void updateEntityLag(CfsRq q, Entity se) {
        long lag = Pick.avgVruntime(q) - se.vruntime;
        long limit = lagLimit(se, se.weight, tunables.tickNs(), lagClampMaxSlice);
        se.vlag = Math.max(-limit, Math.min(limit, lag));
    }

    /**
     * update_entity_lag()'s bound, in the virtual time of an entity of {@code weight}: the longest slice on the
     * queue plus a tick (LAG_CLAMP_MAX_SLICE; every entity's slice is the base slice here, so the queue's longest
     * is the entity's own), else two of its slices, at least a tick.
     */
    static long lagLimit(Entity se, long weight, long tickNs, boolean maxSlice) {
        long span = maxSlice ? se.slice + tickNs : Math.max(2 * se.slice, tickNs); // LAG_CLAMP_MAX_SLICE
        return Weights.calcDeltaFair(span, weight);
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
