package dev.schedsim.engine.core;

import dev.schedsim.engine.balance.NewidleBalance;
import dev.schedsim.engine.bandwidth.Throttle;
import dev.schedsim.engine.event.EventQueue;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.fair.FairPick;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.fair.UpdateCurr;
import dev.schedsim.engine.machine.CacheModel;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.machine.IdleStates;
import dev.schedsim.engine.machine.MachineActivity;
import dev.schedsim.engine.machine.Smt;
import dev.schedsim.engine.sched.Counters;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.RqClock;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskState;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.stats.Recorder;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;

/**
 * __schedule() (kernel/sched/core.c) for every CPU {@link Resched} marked: put the previous task back (or, from
 * 6.18, park it in a throttled hierarchy), pick the next one — after sched_balance_newidle() when nothing is left —
 * and switch (context_switch() with its cost and the cache refill), or go idle. A CPU leaving idle waits its idle
 * state's exit latency before anything runs.
 */
public final class Scheduler {
    private final SimClock clock;
    private final Timers timers;
    private final EventQueue queue;
    private final Topology topo;
    private final SchedDomainShared shared;
    private final Resched resched;
    private final HostStalls hostStalls;
    private final RunQueues rqs;
    private final ContextSwitch contextSwitch;
    private final Counters counters;
    private final UpdateCurr updateCurr;
    private final FairPick fairPick;
    private final Throttle throttle;
    private final Execution execution;
    private final CacheModel cache;
    private final Smt smt;
    private final IdleStates idleStates;
    private final LoadTracking pelt;
    private final NewidleBalance newidle;
    private final Recorder recorder;
    private final long contextSwitchNs;
    private final long wakeKernelNs;
    private final long hrtimerSleepNs;
    private final long hrtimerReprogramNs;
    private final long ipiWakeNs;
    private final MachineActivity activity;
    private final double idleExitCpuShare;
    private final long wakeClockSkipNs;
    private final long tickNs;
    private final boolean taskThrottle; // TASK_BASED_THROTTLE

    /** What __schedule() works with, besides the run's clock and timers. */
    public record Paths(RunQueues rqs, ContextSwitch contextSwitch, Counters counters, UpdateCurr updateCurr,
                        FairPick fairPick, Throttle throttle, NewidleBalance newidle) {
    }

    /** The machine and PELT under __schedule(). */
    public record Machine(Topology topo, SchedDomainShared shared, Execution execution, RqClock rqClock,
                          CacheModel cache, Smt smt, IdleStates idleStates, LoadTracking pelt, Recorder recorder,
                          MachineActivity activity) {
    }

    Scheduler(KernelConfig kernel, HardwareModel hw, SimClock clock, Timers timers, Resched resched,
              HostStalls hostStalls, Paths paths, Machine machine) {
        this.clock = clock;
        this.hostStalls = hostStalls;
        this.timers = timers;
        this.queue = timers.queue;
        this.resched = resched;
        this.rqs = paths.rqs();
        this.contextSwitch = paths.contextSwitch();
        this.counters = paths.counters();
        this.updateCurr = paths.updateCurr();
        this.fairPick = paths.fairPick();
        this.throttle = paths.throttle();
        this.newidle = paths.newidle();
        this.topo = machine.topo();
        this.shared = machine.shared();
        this.execution = machine.execution();
        this.cache = machine.cache();
        this.smt = machine.smt();
        this.idleStates = machine.idleStates();
        this.pelt = machine.pelt();
        this.recorder = machine.recorder();
        this.activity = machine.activity();
        this.contextSwitchNs = hw.contextSwitchNs();
        this.wakeKernelNs = hw.wakeKernelNs();
        this.hrtimerSleepNs = hw.hrtimerSleepNs();
        this.hrtimerReprogramNs = hw.hrtimerReprogramNs();
        this.ipiWakeNs = hw.ipiWakeNs();
        this.idleExitCpuShare = hw.idleExitCpuShare();
        this.wakeClockSkipNs = hw.wakeClockSkipNs();
        this.tickNs = kernel.tickNs();
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
    }

    /** schedule() on every CPU that resched_curr() marked, in the order they were marked. */
    void scheduleMarked() {
        Cpu cpu;
        while ((cpu = resched.poll()) != null) {
            if (cpu.stolenUntil == 0 || !hostStalls.stalled(cpu)) {
                schedule(cpu);
            }
        }
    }

    /** __schedule(): put the previous task back (or park it), pick the next, switch. */
    private void schedule(Cpu cpu) {
        Task prev = cpu.curr;
        boolean throttledInPutPrev = false;
        if (prev != null) {
            updateCurr.updateCurr(cpu);
            execution.updateWork(cpu);
            pelt.updateLoadAvg(prev);
            prev.lastRanNs = clock.now;
            cache.leaveCache(cpu, prev);
            if (taskThrottle && prev.se.cfsRq.throttleCount > 0) { // TASK_BASED_THROTTLE
                // throttle_cfs_rq_work(): the task reached its return to user in a throttled hierarchy.
                throttle.throttleCfsRqWork(prev);
                contextSwitch.switchOut(cpu, prev, Recorder.PREEMPTED);
                prev = null;
            } else {
                throttledInPutPrev = fairPick.putPrevBeforePick(prev);
            }
        } else if (!cpu.busy && !cpu.idleExitDone && cpu.root.nr > 0 && waitIdleExit(cpu)) {
            return;
        }
        if (queue.armed(timers.idleExit(cpu.id))) {
            return;
        }
        // pick_next_task_fair()'s prev: the task this CPU ran until now (curr, or the one that just left it);
        // after idle, the idle task, under which every level starts afresh.
        Task ran = prev != null ? prev : cpu.busy ? cpu.lastRan : null;
        Task next = fairPick.pickNextTaskFair(cpu, ran);
        if (next == null && cpu.root.nr == 0) {
            // pick_next_task_fair() → sched_balance_newidle(), then pick again if it pulled.
            if (newidle.schedBalanceNewidle(cpu, throttledInPutPrev) > 0 || cpu.root.nr > 0) {
                next = fairPick.pickNextTaskFair(cpu, ran);
            }
        }
        cpu.idleExitDone = false;
        // rq->nr_switches counts each change of what the CPU runs, the idle task included (__schedule(): once
        // when prev != next). A CPU still busy ran a task up to now: prev, or one that left it since (blocked,
        // slept, exited, was parked or pushed away), whose own switch was counted when it left.
        if (next == null) {
            if (prev != null) {
                // (put back and nothing to pick: its group was throttled under it)
                fairPick.clearCurr(prev);
                contextSwitch.switchOut(cpu, prev, Recorder.PREEMPTED);
            }
            if (cpu.busy) {
                counters.contextSwitches++;
                goIdle(cpu);
            }
            return;
        }
        if (prev != next) {
            if (prev != null) {
                contextSwitch.preempted(cpu, prev);
            }
            counters.contextSwitches++;
        }
        switchTo(cpu, next);
    }

    /** Leaving idle costs the idle state's exit latency before anything runs: true while it has to wait. */
    private boolean waitIdleExit(Cpu cpu) {
        int slot = timers.idleExit(cpu.id);
        if (queue.armed(slot)) {
            cpu.ipiDelayNs = 0;
            return true;
        }
        long exit = idleStates.exitLatency(cpu);
        // (the exit starts when the wakeup's IPI arrives: WakeIpi; a halted vCPU may wait for its host first)
        long lat = exit + cpu.ipiDelayNs + activity.wakeDelayNs();
        cpu.ipiDelayNs = 0;
        if (lat <= 0) {
            return false;
        }
        queue.arm(slot, clock.now + lat, Timers.PRIO_IDLE_EXIT);
        cpu.idleExitNs = exit;
        return true;
    }

    /** The idle state's exit latency has passed: schedule() may switch in now. */
    void idleExitDone(Cpu cpu) {
        cpu.idleExitDone = true;
        resched.reschedCurr(cpu);
    }

    /** context_switch() and what follows it: next becomes rq->curr and starts (or goes on) running. */
    private void switchTo(Cpu cpu, Task next) {
        long now = clock.now;
        pelt.updateLoadAvg(cpu);
        pelt.updateLoadAvg(next);
        boolean wasIdle = !cpu.busy;
        if (wasIdle) {
            cpu.busy = true;
            cpu.lastBusyStart = now;
            cpu.haltEndedAt = now;
            shared.nrBusyCpus[topo.llcOf(cpu.id)]++;
            smt.cpuBusy(cpu);
        }
        if (next.wakeTime >= 0) {
            // The kernel side of the sleep and the wakeup, in the task's own time, and a timed sleep's timer
            // (hrtimer_start_range_ns() and the way back: HardwareModel.hrtimerSleepNs, with hrtimerReprogramNs when
            // the timer became the CPU's first, HrtimerBases.becomesFirst(); timedSleepCpu()); out of an idle state
            // the task is charged a share of the exit's time (HardwareModel.idleExitCpuShare: on a virtual machine
            // about all of it, from its enqueue as wakeup_preempt()'s rq clock skip has it, measured), and a wakeup
            // sent from another CPU by IPI costs its path (ipiWakeNs).
            // A message its waker wrote on another CPU is read from there (CacheModel.messageTransfer()).
            execution.stall(cpu, wakeKernelNs + timedSleepCpu(next)
                    + (wasIdle ? idleExitCpu(cpu.idleExitNs) : 0) + (next.ipiWake ? ipiWakeNs : 0)
                    + cache.messageTransfer(cpu, next));
            next.ipiWake = false;
        }
        cpu.idleExitNs = 0;
        cpu.ipiDelayNs = 0; // (an IPI that came after the exit had started is spent: WakeIpi)
        if (cpu.curr != next) {
            recorder.switchIn(cpu.id, next, now);
        } else {
            recorder.resumed(cpu.id, next, now);
        }
        boolean switched = cpu.lastRan != next;
        if (switched) {
            cpu.lastRan = next;
        }
        rqs.setCurr(cpu, next);
        next.setState(TaskState.RUNNING);
        updateCurr.setExecStart(cpu);
        execution.startWork(cpu);
        if (switched) {
            // The switch itself, then the cache refill the new task pays here.
            execution.chargeOverhead(cpu, contextSwitchNs);
            cache.refillCache(cpu, next);
        }
        if (next.wakeTime >= 0) {
            next.workload.recordLatency(Math.max(0, now - next.wakeTime));
            next.wakeTime = -1;
        }
        execution.startRun(cpu, next, true);
        execution.armRunEnd(cpu);
        if (next.clockRun) {
            // (a clock read armed for an earlier curr finds no thread-clock run and does nothing)
            updateCurr.armClockRead(cpu);
        }
        if (wasIdle) {
            activity.cpuBusy(cpu);
        }
        int tick = timers.tick(cpu.id);
        if (!queue.armed(tick)) {
            cpu.nextTick = Tick.nextTickAfter(now, tickNs, cpu.tickSkewNs);
            queue.arm(tick, cpu.nextTick, Timers.PRIO_TICK);
        }
    }

    /**
     * What a timed sleep costs the task it wakes (hrtimerSleepNs, with the reprogram when its timer was the CPU's
     * first), less the rq clock skip's part when its wakeup did not ask for the CPU: then __schedule() updated the
     * clock and the task is charged from its switch-in, not from its enqueue (HardwareModel.wakeClockSkipNs).
     */
    private long timedSleepCpu(Task next) {
        if (!next.timedSleep) {
            return 0;
        }
        long ns = hrtimerSleepNs + (next.timerFirst ? hrtimerReprogramNs : 0);
        return next.wakeAskedCpu ? ns : Math.max(0, ns - wakeClockSkipNs);
    }

    /** The CPU time a task woken out of an idle state pays for the cold wake path. */
    private long idleExitCpu(long exitNs) {
        return exitNs == 0 ? 0 : Math.round(exitNs * idleExitCpuShare);
    }

    /** The CPU has nothing to run: its tick stops, its core has one busy thread fewer. */
    private void goIdle(Cpu cpu) {
        long now = clock.now;
        pelt.updateLoadAvg(cpu);
        if (cpu.idleStamp == 0) {
            cpu.idleStamp = now;
        }
        cpu.busy = false;
        shared.nrBusyCpus[topo.llcOf(cpu.id)]--;
        queue.cancel(timers.tick(cpu.id));
        queue.cancel(timers.runEnd(cpu.id));
        activity.cpuIdle(cpu);
        cpu.busyNs += now - cpu.lastBusyStart;
        recorder.add(recorder.busyNs, cpu.lastBusyStart, now);
        cpu.idleSince = now;
        smt.cpuIdle(cpu);
        shared.updateIdleCore(cpu.id);
    }

    /** The report starts now (after warm-up runs, Simulation.startReport()): busy time counts from here. */
    void startReport(Cpu cpu, long now) {
        cpu.busyNs = 0;
        if (cpu.busy) {
            cpu.lastBusyStart = now;
        }
    }
}
