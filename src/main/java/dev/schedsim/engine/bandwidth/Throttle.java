package dev.schedsim.engine.bandwidth;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.FairPick;
import dev.schedsim.engine.fair.FairQueue;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.fair.UpdateCurr;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.sched.TaskState;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.stats.Recorder;

/**
 * The local side of CFS bandwidth control (kernel/sched/fair.c, __account_cfs_rq_runtime() to unthrottle_cfs_rq()): each cfs_rq's runtime,
 * charged at update_curr and topped up from the pool in slices, throttling when it is gone and unthrottling
 * when the pool gives it more. The two throttle models are selected by TASK_BASED_THROTTLE: 6.18 parks each task
 * of a throttled hierarchy at its return to user (e1fad12dcb66); off it, the cfs_rq-based model of 6.1 dequeues
 * the group's entity at once. Owns each cfs_rq's runtime, throttle state and limbo list, and the throttled time.
 *
 * <p><b>Limitations:</b> cpu.stat.local is not reported.
 */
public final class Throttle {
    private final SimClock clock;
    private final BandwidthPool pool;
    private final BandwidthHooks hooks;
    private final Cpu[] cpus;
    private final Resched resched;
    private final LoadTracking pelt;
    private final Recorder recorder;
    private final long tickNs;
    private final boolean taskThrottle; // TASK_BASED_THROTTLE
    private final boolean expiration; // SLICE_EXPIRATION
    private FairQueue fairQueue;
    private FairPick fairPick;
    private UpdateCurr updateCurr;

    public Throttle(KernelConfig kernel, SimClock clock, BandwidthPool pool, BandwidthHooks hooks, Cpu[] cpus,
                    Resched resched, LoadTracking pelt, Recorder recorder) {
        this.clock = clock;
        this.pool = pool;
        this.hooks = hooks;
        this.cpus = cpus;
        this.resched = resched;
        this.pelt = pelt;
        this.recorder = recorder;
        this.tickNs = kernel.tickNs();
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
        this.expiration = kernel.on(Feature.SLICE_EXPIRATION);
    }

    /** (cycle: throttling dequeues what enqueueing throttles, and brings curr up to date) */
    public void wire(FairQueue fairQueue, FairPick fairPick, UpdateCurr updateCurr) {
        this.fairQueue = fairQueue;
        this.fairPick = fairPick;
        this.updateCurr = updateCurr;
    }

    /**
     * __account_cfs_rq_runtime(): debit the runtime; when it is gone, try to extend it. 6.1 reschedules so that
     * put_prev can throttle; 6.18 throttles here (throttle_cfs_rq first tries to extend it itself).
     */
    public void accountCfsRqRuntime(CfsRq q, long delta) {
        if (!hooks.used() || !q.runtimeEnabled) {
            return;
        }
        q.runtimeRemaining -= delta;
        if (expiration) { // SLICE_EXPIRATION
            expireCfsRqRuntime(q);
        }
        if (q.runtimeRemaining > 0) {
            return;
        }
        if (q.throttled) {
            return;
        }
        if (taskThrottle) { // TASK_BASED_THROTTLE
            throttleCfsRq(q);
            return;
        }
        if (!pool.assignCfsRqRuntime(q, pool.slice) && q.curr != null) {
            resched.reschedCurr(cpus[q.cpu]);
        }
    }

    /** expire_cfs_rq_runtime() (4.18–5.3, SLICE_EXPIRATION): a local deadline 2 ticks of drift at most. */
    private void expireCfsRqRuntime(CfsRq q) {
        CfsBandwidth b = pool.bandwidthOf(q.tg);
        if (clock.now - q.runtimeExpires < 0) {
            return;
        }
        if (q.runtimeRemaining < 0) {
            return;
        }
        if (q.expiresSeq == b.expiresSeq) {
            q.runtimeExpires += tickNs;
        } else {
            q.runtimeRemaining = 0;
        }
    }

    /** check_cfs_rq_runtime(): throttle a cfs_rq whose runtime is gone; true when it is throttled. */
    public boolean checkCfsRqRuntime(CfsRq q) {
        if (!hooks.used() || !q.runtimeEnabled || q.runtimeRemaining > 0) {
            return false;
        }
        if (q.throttled) {
            return true;
        }
        return throttleCfsRq(q);
    }

    /** check_enqueue_throttle() (6.1): a group waking up with no runtime is throttled at once. */
    public void checkEnqueueThrottle(CfsRq q) {
        if (!hooks.used() || !q.runtimeEnabled || q.curr != null || q.throttled) {
            return;
        }
        accountCfsRqRuntime(q, 0);
        if (q.runtimeRemaining <= 0) {
            throttleCfsRq(q);
        }
    }

    /**
     * throttle_cfs_rq(): a last request for runtime (1 ns, or a slice in 6.18 when curr is on the queue), then
     * onto the tail of the throttled list and throttle_count up on the whole subtree. 6.1 dequeues the group's
     * entity from its parent (h_nr_running and rq->nr_running drop, throttled_clock starts); 6.18 leaves the
     * tasks queued to be parked one by one at their return to user.
     */
    public boolean throttleCfsRq(CfsRq q) {
        CfsBandwidth b = pool.bandwidthOf(q.tg);
        long target = taskThrottle && q.curr != null && q.curr.onRq ? pool.slice : 1; // TASK_BASED_THROTTLE
        if (pool.assignCfsRqRuntime(q, target)) {
            return false;
        }
        b.addThrottled(q);
        tgThrottleDown(q.tg, q.cpu);
        q.throttled = true;
        Cpu cpu = cpus[q.cpu];
        if (taskThrottle) { // TASK_BASED_THROTTLE
            if (BandwidthPool.inHierarchy(cpu.curr, q)) {
                resched.reschedCurr(cpu);
            }
            return true;
        }
        pelt.updateLoadAvg(cpu);
        fairQueue.dequeueEntities(q.se, cpu, q.hNrRunning, FairQueue.DEQUEUE_SLEEP | FairQueue.DEQUEUE_THROTTLE);
        q.throttledClock = clock.now;
        recorder.throttle(q.cpu, q.tg, clock.now);
        return true;
    }

    /** tg_throttle_down over the subtree on one CPU. */
    private static void tgThrottleDown(TaskGroup g, int cpu) {
        g.rq[cpu].throttleCount++;
        for (TaskGroup c : g.children) {
            tgThrottleDown(c, cpu);
        }
    }

    /**
     * throttle_cfs_rq_work() (6.18): the task reached its return to user in a throttled hierarchy: dequeued onto
     * its cfs_rq's limbo list; the first task parked starts the throttle clocks (record_throttle_clock()).
     */
    public void throttleCfsRqWork(Task p) {
        fairQueue.dequeueTask(p, FairQueue.DEQUEUE_SLEEP | FairQueue.DEQUEUE_THROTTLE);
        fairPick.clearCurr(p);
        p.setState(TaskState.THROTTLED);
        p.se.cfsRq.park(p);
        recordThrottleClock(p.se.cfsRq);
    }

    /**
     * record_throttle_clock() (6.18): the first task actually parked starts throttled_clock of the throttled
     * cfs_rq(s) above it.
     */
    private void recordThrottleClock(CfsRq q) {
        for (CfsRq r = q; r != null; r = r.parent) {
            if (r.throttled && r.throttledClock == 0) {
                r.throttledClock = clock.now;
                recorder.throttle(r.cpu, r.tg, clock.now);
            }
        }
    }

    /** unthrottle_cfs_rq(). */
    void unthrottleCfsRq(CfsRq q) {
        CfsBandwidth b = pool.bandwidthOf(q.tg);
        Cpu cpu = cpus[q.cpu];
        if (taskThrottle) { // TASK_BASED_THROTTLE
            if (BandwidthPool.inHierarchy(cpu.curr, q)) {
                updateCurr.updateCurr(cpu);
            }
            if (q.runtimeRemaining <= 0) {
                return;
            }
        }
        q.throttled = false;
        b.removeThrottled(q);
        if (q.throttledClock != 0 || !taskThrottle) {
            long now = clock.now;
            recorder.add(recorder.throttledNs[q.tg.index], q.throttledClock, now);
            recorder.unthrottle(q.cpu, q.tg, now);
            b.throttledTime += now - q.throttledClock;
            q.throttledClock = 0;
        }
        tgUnthrottleUp(q.tg, q.cpu);
        if (!taskThrottle && q.load != 0) {
            pelt.updateLoadAvg(cpu);
            fairQueue.enqueueEntities(q.se, cpu, q.hNrRunning, FairQueue.ENQUEUE_WAKEUP);
        }
        if (cpu.curr == null && cpu.root.nr > 0) {
            resched.reschedCurr(cpu);
        }
    }

    /**
     * tg_unthrottle_up, children first; in 6.18 a cfs_rq whose count reaches 0 enqueues its limbo list again
     * (enqueue_task_fair(…, ENQUEUE_WAKEUP) for each parked task).
     */
    private void tgUnthrottleUp(TaskGroup g, int cpu) {
        for (TaskGroup c : g.children) {
            tgUnthrottleUp(c, cpu);
        }
        CfsRq r = g.rq[cpu];
        r.throttleCount--;
        if (r.throttleCount == 0 && taskThrottle && r.nLimbo > 0) { // TASK_BASED_THROTTLE
            int n = r.nLimbo;
            Task[] parked = java.util.Arrays.copyOf(r.limbo, n);
            java.util.Arrays.fill(r.limbo, 0, n, null);
            r.nLimbo = 0;
            for (int i = 0; i < n; i++) {
                if (r.throttleCount > 0) {
                    r.park(parked[i]);
                    continue;
                }
                Task p = parked[i];
                p.setState(TaskState.RUNNABLE);
                fairQueue.enqueueTask(p, p.cpu, FairQueue.ENQUEUE_WAKEUP);
            }
        }
    }
}
