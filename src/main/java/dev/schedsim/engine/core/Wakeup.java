package dev.schedsim.engine.core;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.FairQueue;
import dev.schedsim.engine.fair.Preemption;
import dev.schedsim.engine.fair.SisCache;
import dev.schedsim.engine.sched.Counters;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskState;
import dev.schedsim.engine.select.SelectTaskRq;
import dev.schedsim.engine.stats.Recorder;
import dev.schedsim.engine.workload.Action;
import dev.schedsim.engine.workload.SimThread;
import dev.schedsim.engine.workload.ThreadOps;
import java.util.SplittableRandom;

/**
 * try_to_wake_up() and wake_up_new_task() (kernel/sched/core.c): a blocked or sleeping task becomes runnable on
 * the CPU select_task_rq() chooses (or, still queued by DELAY_DEQUEUE, where it is: ttwu_runnable()), with ttwu_do_activate()'s avg_idle update and the wakeup-preemption check; a
 * new task is enqueued on its fork-balanced CPU. What a workload's program asks of the scheduler comes through
 * here ({@link ThreadOps}).
 */
public final class Wakeup implements ThreadOps {
    private final SimClock clock;
    private final HrtimerBases hrtimers;
    private final SplittableRandom random;
    private final Cpu[] cpus;
    private final SelectTaskRq select;
    private final SisCache sisCache;
    private final FairQueue fairQueue;
    private final Preemption preemption;
    private final Counters counters;
    private final long tickNs;
    private final Recorder recorder;
    private final WakeIpi wakeIpi;
    private Lifecycle lifecycle;

    public Wakeup(SimClock clock, HrtimerBases hrtimers, SplittableRandom random, Cpu[] cpus, SelectTaskRq select,
                  SisCache sisCache, FairQueue fairQueue, Preemption preemption, Counters counters, long tickNs,
                  Recorder recorder, WakeIpi wakeIpi) {
        this.clock = clock;
        this.hrtimers = hrtimers;
        this.random = random;
        this.cpus = cpus;
        this.select = select;
        this.sisCache = sisCache;
        this.fairQueue = fairQueue;
        this.preemption = preemption;
        this.counters = counters;
        this.tickNs = tickNs;
        this.recorder = recorder;
        this.wakeIpi = wakeIpi;
    }

    /** (cycle: a woken task whose program does not run goes back to sleep, blocks or exits) */
    void wire(Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** A program's wake of a thread of its own ({@link ThreadOps}): the thread is a task. */
    @Override
    public void tryToWakeUp(SimThread p, int wakerCpu, boolean sync) {
        tryToWakeUp((Task) p, wakerCpu, sync);
    }

    /**
     * try_to_wake_up(): a blocked or sleeping task becomes runnable on the CPU select_task_rq_fair() chooses; a
     * task that is not asleep keeps the wake for its next block (like data left in a pipe).
     */
    public void tryToWakeUp(Task p, int wakerCpu, boolean sync) {
        if (!p.is(TaskState.BLOCKED) && !p.is(TaskState.SLEEPING)) {
            if (!p.is(TaskState.DONE)) {
                p.pendingWakes++;
            }
            return;
        }
        hrtimers.cancel(p);
        Action a = p.next();
        if (a != Action.RUN) {
            lifecycle.handleStop(p, a, p.cpu);
            return;
        }
        p.wakeups++;
        counters.wakeups++;
        // (a sync wakeup from a request-response thread carries its message: CacheModel.messageTransfer())
        p.wakeDataCpu = sync && p.workload.messageLines > 0 ? wakerCpu : -1;
        if (p.se.delayed) {
            // ttwu_runnable(): still queued from its sleep (DELAY_DEQUEUE): requeued where it is, no CPU chosen.
            recorder.waking(p, wakerCpu, p.cpu, p.cpu, clock.now);
            p.setState(TaskState.RUNNABLE);
            p.wakeTime = clock.now;
            sisCache.woken(p); // SIS_CACHE
            fairQueue.requeueDelayedTask(p);
            p.wakeAskedCpu = preemption.wakeupPreempt(cpus[p.cpu], p);
            return;
        }
        Task waker = cpus[wakerCpu].curr;
        int cpu = select.selectTaskRqFair(p, wakerCpu, waker, sync);
        recorder.waking(p, wakerCpu, p.cpu, cpu, clock.now);
        if (cpu != p.cpu) {
            p.migrations++;
            counters.migrations++;
            counters.wakeupMigrations++;
            fairQueue.migrateTaskRqFair(p, cpu); // set_task_cpu()
        }
        p.setState(TaskState.RUNNABLE);
        p.wakeTime = clock.now;
        sisCache.woken(p); // SIS_CACHE
        wakeIpi.ttwuQueueWakelist(p, wakerCpu, cpus[cpu]);
        updateAvgIdle(cpus[cpu]);
        fairQueue.enqueueTask(p, cpu, FairQueue.ENQUEUE_WAKEUP);
        p.wakeAskedCpu = preemption.wakeupPreempt(cpus[cpu], p);
    }

    /** wake_up_new_task() of a task created at its start time, on its fork-balanced CPU. */
    public void wakeUpNewTask(Task p, int cpu) {
        activateNewTask(p, cpu, p.next());
    }

    /** wake_up_new_task() of a task whose program already chose its first action {@code a}. */
    void activateNewTask(Task p, int cpu, Action a) {
        if (a != Action.RUN) {
            lifecycle.handleStop(p, a, cpu);
            return;
        }
        recorder.wakeupNew(p, cpu, clock.now);
        p.setState(TaskState.RUNNABLE);
        fairQueue.enqueueTask(p, cpu, FairQueue.ENQUEUE_INITIAL);
        preemption.checkPreemptWakeupFair(cpus[cpu], p);
    }

    /**
     * ttwu_do_activate(): a wakeup onto a CPU that was idle feeds avg_idle (capped at twice the CPU's
     * max_idle_balance_cost), and SIS_PROP's predicted idle time restarts from it.
     */
    private void updateAvgIdle(Cpu rq) {
        if (rq.idleStamp == 0) {
            return;
        }
        long delta = clock.now - rq.idleStamp;
        long max = 2 * rq.maxIdleBalanceCost;
        rq.avgIdle += (delta - rq.avgIdle) / 8;
        if (rq.avgIdle > max) {
            rq.avgIdle = max;
        }
        rq.idleStamp = 0;
        rq.wakeAvgIdle = rq.avgIdle / 2;
        rq.wakeStamp = clock.now / tickNs;
    }

    @Override
    public long now() {
        return clock.now;
    }

    @Override
    public SplittableRandom random() {
        return random;
    }
}
