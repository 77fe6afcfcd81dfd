package dev.schedsim.engine.core;

import dev.schedsim.engine.balance.MigrationOps;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.FairPick;
import dev.schedsim.engine.fair.FairQueue;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.fair.Preemption;
import dev.schedsim.engine.fair.UpdateCurr;
import dev.schedsim.engine.machine.CacheModel;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Counters;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.stats.Recorder;

/**
 * Moving a task to another CPU for load balancing (kernel/sched/core.c): move_queued_task() for a queued task,
 * and what the stopper of an active balance does to a running one (migration_cpu_stop() preempts it, then moves
 * it the same way). Load balancing asks for it through {@link MigrationOps}.
 */
public final class Migration implements MigrationOps {
    private final SimClock clock;
    private final RunQueues rqs;
    private final FairQueue fairQueue;
    private final FairPick fairPick;
    private final Preemption preemption;
    private final UpdateCurr updateCurr;
    private final Execution execution;
    private final LoadTracking pelt;
    private final CacheModel cache;
    private final ContextSwitch contextSwitch;
    private final Resched resched;
    private final Counters counters;
    private final Recorder recorder;

    public Migration(SimClock clock, RunQueues rqs, FairQueue fairQueue, FairPick fairPick, Preemption preemption,
                     UpdateCurr updateCurr, Execution execution, LoadTracking pelt, CacheModel cache,
                     ContextSwitch contextSwitch, Resched resched, Counters counters, Recorder recorder) {
        this.clock = clock;
        this.rqs = rqs;
        this.fairQueue = fairQueue;
        this.fairPick = fairPick;
        this.preemption = preemption;
        this.updateCurr = updateCurr;
        this.execution = execution;
        this.pelt = pelt;
        this.cache = cache;
        this.contextSwitch = contextSwitch;
        this.resched = resched;
        this.counters = counters;
        this.recorder = recorder;
    }

    @Override
    public void moveQueuedTask(Task p, int dst) {
        recorder.migrate(p, p.cpu, dst, clock.now);
        fairQueue.dequeueTask(p, 0);
        p.lastDequeueTime = 0;
        p.migrations++;
        counters.migrations++;
        fairQueue.migrateTaskRqFair(p, dst);
        fairQueue.enqueueTask(p, dst, 0);
        preemption.checkPreemptWakeupFair(rqs.cpu(dst), p);
    }

    @Override
    public void pushRunningTask(Cpu src, Task p, int dst) {
        updateCurr.updateCurr(src);
        execution.updateWork(src);
        pelt.updateLoadAvg(p);
        fairPick.putPrevTaskFair(p);
        p.lastRanNs = clock.now;
        contextSwitch.switchOut(src, p, Recorder.PREEMPTED);
        cache.leaveCache(src, p);
        moveQueuedTask(p, dst);
        resched.reschedCurr(src);
    }
}
