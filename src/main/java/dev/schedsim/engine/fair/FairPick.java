package dev.schedsim.engine.fair;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Counters;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskState;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.stats.Recorder;

/**
 * The fair class's side of __schedule() (kernel/sched/fair.c): pick_task_fair() down the hierarchy,
 * set_next_task_fair() and put_prev_task_fair() on every level. Before 6.18 put_prev is where a cfs_rq whose
 * runtime ran out is throttled; from 6.18 a task picked in a throttled hierarchy is parked instead of run.
 */
public final class FairPick {
    private final RunQueues rqs;
    private final Bandwidth bandwidth;
    private final Counters counters;
    private final FairQueue fairQueue;
    private final boolean eevdf; // EEVDF
    private final boolean taskThrottle; // TASK_BASED_THROTTLE
    private final SimClock clock;
    private final Recorder recorder;

    public FairPick(KernelConfig kernel, RunQueues rqs, Bandwidth bandwidth, Counters counters,
                    FairQueue fairQueue, SimClock clock, Recorder recorder) {
        this.clock = clock;
        this.recorder = recorder;
        this.rqs = rqs;
        this.fairQueue = fairQueue;
        this.bandwidth = bandwidth;
        this.counters = counters;
        this.eevdf = kernel.on(Feature.EEVDF);
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
    }

    /**
     * pick_next_task_fair() / pick_task_fair(): walk down the hierarchy picking at each level, then
     * set_next_task_fair() ({@code prev}: the task the CPU ran, which keeps its slice state if picked again);
     * null when nothing is queued. A delayed entity that is picked is dequeued and the pick starts over
     * (pick_next_entity()).
     */
    public Task pickNextTaskFair(Cpu cpu, Task prev) {
        for (int guard = 0; guard < 1_000_000; guard++) {
            CfsRq q = cpu.root;
            if (q.nr == 0) {
                return null;
            }
            boolean throttled = false;
            Entity se;
            while (true) {
                if (taskThrottle) { // TASK_BASED_THROTTLE
                    throttled |= bandwidth.checkCfsRqRuntime(q);
                }
                se = eevdf ? Pick.pickEevdf(q) : Pick.pickNextEntity(q); // EEVDF
                if (se.delayed || se.task != null) { // DELAY_DEQUEUE
                    break;
                }
                q = se.my;
            }
            if (se.delayed) { // DELAY_DEQUEUE
                fairQueue.dequeueDelayed(se, cpu);
                continue;
            }
            Task p = se.task;
            if (taskThrottle && (throttled || p.se.cfsRq.throttleCount > 0)) { // TASK_BASED_THROTTLE
                // task_throttle_setup_work(): parked as soon as it returns to user.
                parkPicked(p);
                continue;
            }
            putPrevEntities(prev, p);
            setNextTaskFair(p, prev);
            if (taskThrottle && p.se.cfsRq.throttleCount > 0) { // TASK_BASED_THROTTLE
                clearCurr(p);
                parkPicked(p);
                continue;
            }
            return p;
        }
        throw new IllegalStateException("pick loop did not converge on CPU " + cpu.id);
    }

    /**
     * pick_next_task_fair() picks with prev still curr of its levels (pick_task_fair(); 6.1's fast path too), so
     * that pick_eevdf() weighs it as curr — its protected slice, and a tie of deadlines lost to the queued entity
     * (entity_before() is strict) — and only then puts it: put_prev_entity() on the levels prev does not share with
     * the task picked (set_next_entity() replaces it on the others).
     */
    private void putPrevEntities(Task prev, Task p) {
        if (prev == null || prev == p) {
            return;
        }
        for (Entity se = prev.se; se != null; se = se.parent) {
            if (se.cfsRq.curr == se && !ranUnder(p, se)) {
                se.cfsRq.setCurr(null);
            }
        }
    }

    /** A task picked in a throttled hierarchy runs only to its return to user, where it is parked. */
    private void parkPicked(Task p) {
        p.contextSwitches++;
        counters.contextSwitches++;
        recorder.parkedPick(p.cpu, p, clock.now);
        bandwidth.throttleCfsRqWork(p);
    }

    /**
     * set_next_task_fair(): set_next_entity() and account_cfs_rq_runtime(cfs_rq, 0) on every level. An entity
     * that was not curr of its level under {@code prev} starts a slice (prev_sum_exec_runtime) and is protected
     * (set_protect_slice()); pick_next_task_fair() calls set_next_entity() only for the levels that change, so a
     * task picked again, or a group both tasks share, goes on with both.
     */
    public void setNextTaskFair(Task p, Task prev) {
        rqs.lruMoveToHead(rqs.cpu(p.cpu), p);
        for (Entity se = p.se; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            q.setCurr(se);
            if (!ranUnder(prev, se)) {
                se.prevSumExec = se.sumExec;
                se.vprot = se.deadline;
            }
            if (q.runtimeEnabled) {
                bandwidth.accountCfsRqRuntime(q, 0);
            }
        }
    }

    /** Whether se is prev's entity or one of its group entities (curr of its level while prev ran). */
    private static boolean ranUnder(Task prev, Entity se) {
        if (prev == null) {
            return false;
        }
        for (Entity e = prev.se; e != null; e = e.parent) {
            if (e == se) {
                return true;
            }
        }
        return false;
    }

    /** cfs_rq->curr = NULL on every level where it is the task's entity. */
    public void clearCurr(Task p) {
        for (Entity se = p.se; se != null; se = se.parent) {
            if (se.cfsRq.curr == se) {
                se.cfsRq.setCurr(null);
            }
        }
    }

    /**
     * put_prev_task_fair(): put_prev_entity() bottom-up; before 6.18 this is where throttling happens
     * (check_cfs_rq_runtime()). Returns whether a cfs_rq of the task was throttled here.
     */
    public boolean putPrevTaskFair(Task prev) {
        boolean throttled = putPrevBeforePick(prev);
        clearCurr(prev);
        return throttled;
    }

    /**
     * What __schedule() does to a prev that stays runnable before pick_next_task_fair() picks: the bandwidth hooks,
     * and before 6.18 check_cfs_rq_runtime() on its levels (6.1's fast path throttles there, then picks from the
     * root with nothing curr: "goto simple"). prev stays curr of its levels for the pick otherwise
     * ({@link #putPrevEntities}). Returns whether a cfs_rq of the task was throttled here.
     */
    public boolean putPrevBeforePick(Task prev) {
        bandwidth.charge(rqs.cpu(prev.cpu), prev.group.depth + 1);
        boolean throttled = false;
        for (Entity se = prev.se; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (!taskThrottle && !q.throttled && bandwidth.checkCfsRqRuntime(q)) { // TASK_BASED_THROTTLE (off)
                throttled = true;
            }
        }
        if (throttled) {
            clearCurr(prev);
        }
        prev.setState(TaskState.RUNNABLE);
        return throttled;
    }
}
