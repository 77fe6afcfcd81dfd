package dev.schedsim.engine.core;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.stats.Recorder;

/**
 * The one place where a task leaves its CPU's rq->curr — preempted, blocking, sleeping, exiting, parked by the
 * 6.18 throttle or pushed away by active balancing: its switch is counted (p->nvcsw + p->nivcsw), traced with the
 * state sched_switch would print for it, rq->curr cleared and its run-segment timer cancelled.
 */
public final class ContextSwitch {
    private final SimClock clock;
    private final Timers timers;
    private final RunQueues rqs;
    private final Recorder recorder;

    public ContextSwitch(SimClock clock, Timers timers, RunQueues rqs, Recorder recorder) {
        this.clock = clock;
        this.timers = timers;
        this.rqs = rqs;
        this.recorder = recorder;
    }

    /**
     * {@code p}, rq->curr of {@code cpu}, leaves it in {@code state} (Recorder.PREEMPTED, SLEEPING, DEAD); nothing
     * runs there until schedule() picks.
     */
    public void switchOut(Cpu cpu, Task p, String state) {
        switchedOut(cpu, p, state);
        rqs.setCurr(cpu, null);
        timers.queue.cancel(timers.runEnd(cpu.id));
    }

    /**
     * {@code p} is preempted by the task schedule() switches to at once (which becomes rq->curr and re-arms the
     * run-segment timer).
     */
    void preempted(Cpu cpu, Task p) {
        switchedOut(cpu, p, Recorder.PREEMPTED);
    }

    private void switchedOut(Cpu cpu, Task p, String state) {
        p.contextSwitches++;
        recorder.switchOut(cpu.id, p, state, clock.now);
    }
}
