package dev.schedsim.engine.core;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.FairPick;
import dev.schedsim.engine.fair.FairQueue;
import dev.schedsim.engine.fair.UpdateCurr;
import dev.schedsim.engine.machine.CacheModel;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.machine.MachineActivity;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskState;
import dev.schedsim.engine.stats.Recorder;
import dev.schedsim.engine.workload.Action;
import dev.schedsim.engine.workload.SimThread;
import dev.schedsim.engine.workload.WorkloadRun;

/**
 * (model) A task between the scheduler's paths: its run segment ends and its program says what next — run on,
 * or leave the CPU to sleep, block or exit (dequeue_task() with DEQUEUE_SLEEP, then schedule()); every thread
 * exits at the spec's stop time. Owns the count of finite workloads still running.
 */
public final class Lifecycle {
    private final SimClock clock;
    private final HrtimerBases hrtimers;
    private final Task[] tasks;
    private final Cpu[] cpus;
    private final UpdateCurr updateCurr;
    private final Execution execution;
    private final FairQueue fairQueue;
    private final FairPick fairPick;
    private final CacheModel cache;
    private final ContextSwitch contextSwitch;
    private final Resched resched;
    private final MachineActivity activity;
    private int finiteLeft;
    private boolean allFinite;

    public Lifecycle(SimClock clock, HrtimerBases hrtimers, Task[] tasks, Cpu[] cpus, UpdateCurr updateCurr,
                     Execution execution, FairQueue fairQueue, FairPick fairPick, CacheModel cache,
                     ContextSwitch contextSwitch, Resched resched, MachineActivity activity) {
        this.activity = activity;
        this.clock = clock;
        this.hrtimers = hrtimers;
        this.tasks = tasks;
        this.cpus = cpus;
        this.updateCurr = updateCurr;
        this.execution = execution;
        this.fairQueue = fairQueue;
        this.fairPick = fairPick;
        this.cache = cache;
        this.contextSwitch = contextSwitch;
        this.resched = resched;
    }

    /**
     * The run may end early once every workload of the spec is finite and all have completed (the machine's
     * background threads, the workloads from {@code specWorkloads} on, never end and do not count).
     */
    void countFinite(WorkloadRun[] workloads, int specWorkloads) {
        for (int i = 0; i < specWorkloads; i++) {
            if (workloads[i].finite) {
                finiteLeft++;
            }
        }
        allFinite = finiteLeft == specWorkloads && specWorkloads > 0;
    }

    /** Every workload is finite and has completed. */
    boolean allCompleted() {
        return allFinite && finiteLeft == 0;
    }

    /** The running task's run segment ended: ask its program what it does next. */
    void segmentDone(Cpu cpu) {
        Task p = cpu.curr;
        if (p == null) {
            return;
        }
        execution.updateWork(cpu);
        if (!execution.segmentOver(cpu, p)) {
            // Overhead charged since the segment end was armed delayed it. The program is still computing in user
            // space: the kernel runs no update_curr() here, so neither does the model (one here would end a slice
            // or find a quota gone at a moment the kernel does not look, and park the task mid-run).
            execution.armRunEnd(cpu);
            return;
        }
        Action a = p.next();
        if (a == Action.RUN) {
            // The next segment follows in user space, without entering the kernel.
            execution.startRun(cpu, p, false);
            execution.armRunEnd(cpu);
            return;
        }
        // The program enters the kernel to sleep, block or exit: dequeue_task_fair()'s update_curr().
        updateCurr.updateCurr(cpu);
        leaveCpu(cpu, p, a);
    }

    /** The running task blocks, sleeps or exits; the CPU stays busy until schedule() picks. */
    private void leaveCpu(Cpu cpu, Task p, Action action) {
        p.lastRanNs = clock.now;
        cache.leaveCache(cpu, p);
        // (an exiting task is dequeued at once: task_dead_fair() finishes a delayed dequeue)
        fairQueue.dequeueTask(p, action == Action.EXIT ? FairQueue.DEQUEUE_SLEEP | FairQueue.DEQUEUE_SPECIAL
                : FairQueue.DEQUEUE_SLEEP);
        fairPick.clearCurr(p);
        contextSwitch.switchOut(cpu, p, action == Action.EXIT ? Recorder.DEAD : Recorder.SLEEPING);
        handleStop(p, action, cpu.id);
        resched.reschedCurr(cpu);
    }

    /** A task that does not run next: sleep on a timer, block, or exit. */
    void handleStop(Task p, Action action, int cpu) {
        switch (action) {
            case SLEEP:
                p.setState(TaskState.SLEEPING);
                p.timedSleep = true;
                hrtimers.arm(p, cpu, activity.timerLateness());
                break;
            case BLOCK:
                p.setState(TaskState.BLOCKED);
                p.timedSleep = false;
                break;
            default:
                p.setState(TaskState.DONE);
                WorkloadRun w = p.workload;
                if (--w.live == 0) {
                    w.completionNs = clock.now;
                    if (w.finite && !w.warmup) {
                        finiteLeft--;
                    }
                }
                break;
        }
    }

    /** Every thread exits now (EngineSpec.stopUs): running ones leave their CPU, queued ones their queue. */
    void stopAll() {
        stop(tasks);
    }

    /** These threads exit now (a warm-up run's, at its end). */
    void stop(SimThread[] which) {
        for (SimThread s : which) {
            Task p = (Task) s;
            switch (p.state()) {
                case RUNNING: {
                    Cpu cpu = cpus[p.cpu];
                    updateCurr.updateCurr(cpu);
                    execution.updateWork(cpu);
                    leaveCpu(cpu, p, Action.EXIT);
                    break;
                }
                case RUNNABLE:
                    fairQueue.dequeueTask(p, FairQueue.DEQUEUE_SLEEP | FairQueue.DEQUEUE_SPECIAL);
                    handleStop(p, Action.EXIT, p.cpu);
                    break;
                case THROTTLED:
                    p.se.cfsRq.unpark(p);
                    handleStop(p, Action.EXIT, p.cpu);
                    break;
                case DONE:
                    break;
                default:
                    hrtimers.cancel(p);
                    if (p.se.delayed) {
                        fairQueue.dequeueDelayed(p.se, cpus[p.cpu]); // task_dead_fair()
                    }
                    handleStop(p, Action.EXIT, p.cpu);
                    break;
            }
        }
    }
}
