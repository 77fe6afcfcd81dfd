package dev.schedsim.engine.sched;

import dev.schedsim.engine.pelt.Pelt;
import dev.schedsim.engine.workload.Action;
import dev.schedsim.engine.workload.SimThread;
import dev.schedsim.engine.workload.WorkloadRun;
import java.util.SplittableRandom;

/**
 * A {@code struct task_struct}: one simulated thread, its entity, the run segment its program set and its
 * counters. Its program sees it only as a {@link SimThread}.
 */
public final class Task implements SimThread {
    public final int id;
    public final WorkloadRun workload;
    /** Its position among its workload's threads. */
    public final int index;
    public final TaskGroup group;
    public final Entity se;
    /** Allowed CPUs (p->cpus_ptr); null = all. */
    public final boolean[] allowed;
    /** p->nr_cpus_allowed == 1: it may run on one CPU only. */
    public final boolean oneCpu;
    public final int nice;
    /**
     * Its {@link TaskState}, as the ordinal: the state changes several times per event, and storing an enum
     * reference would cost a garbage-collector write barrier each time (2–3 % of the 64-CPU benchmark).
     */
    private int state = TaskState.NEW.ordinal();
    /** The CPU the task is queued on or last ran on (task_cpu). */
    public int cpu = -1;
    /** p->recent_used_cpu. */
    public int recentUsedCpu = -1;
    /** Work left in the current run segment, in ns of full single-thread speed. */
    public long remainingWork;
    /** The segment runs forever (cpu-bound without workUs). */
    public boolean infinite;
    /**
     * A wall-clock spin (schbench's usec_spin()): the segment lasts {@code spinNs} of wall time from the moment
     * the task first runs it, whatever its speed and however long it waits meanwhile; 0 = a work segment.
     */
    public long spinNs;
    /** The wall time the current spin ends, or -1 before the task has started running it. */
    public long spinUntil = -1;
    /**
     * The current run lasts {@code clockRunNs} of the task's own CPU clock (RunClock.THREAD_CPU), whatever of it is
     * work: it ends when {@link #cpuNs} reaches {@code clockRunUntil} (-1 until the task first runs it).
     */
    public boolean clockRun;
    public long clockRunNs;
    public long clockRunUntil = -1;
    /** The length of the sleep its program asked for. */
    public long sleepNs;
    /** The slack of the sleep asked for last (part of {@link #sleepNs}). */
    public long sleepSlackNs;
    /** Its last sleep was a timed one (an hrtimer armed), not a wait on a queue: HardwareModel.hrtimerSleepNs. */
    public boolean timedSleep;
    /** Its sleep's timer became its CPU's first to expire when armed: HardwareModel.hrtimerReprogramNs. */
    public boolean timerFirst;
    /** Its sleep timer expired in an interrupt on a busy CPU: its wakeup is due at the interrupt's end. */
    public boolean irqWake;
    /** Its last wakeup came to an idle CPU from another one, by IPI: HardwareModel.ipiWakeNs (WakeIpi). */
    public boolean ipiWake;
    /**
     * Its last wakeup left its CPU marked for __schedule() (wakeup_preempt()'s rq_clock_skip_update() condition):
     * HardwareModel.wakeClockSkipNs.
     */
    public boolean wakeAskedCpu;
    /**
     * The CPU its waker ran on when it woke it with a message (a sync wakeup of a request-response thread), whose
     * lines it reads when it runs: CacheModel.messageTransfer(); -1: none.
     */
    public int wakeDataCpu = -1;
    /** The armed sleep's hrtimer: soft and hard expiry, and the CPU whose hrtimer base holds it (-1: none). */
    public long timerSoftNs;
    public long timerHardNs;
    public int timerCpu = -1;
    /** Its place in that CPU's list (HrtimerBases). */
    public int timerIndex;
    /** Time of the pending wakeup (for wakeup latency), or -1. */
    public long wakeTime = -1;
    /** A wake that arrived before the task blocked (like a pipe with a byte in it). */
    public int pendingWakes;
    /** wake_wide() bookkeeping: record_wakee(). */
    public Task lastWakee;
    public int wakeeFlips;
    public long wakeeFlipDecayTs;

    /** PELT of this task (util_avg, load_avg). */
    public final Pelt pelt = new Pelt();
    /** lastRanNs of a task that has not run since it was created or migrated (se.exec_start = 0). */
    public static final long NEVER_RAN = Long.MIN_VALUE / 2;
    /** When it last stopped running (se.exec_start for task_hot()). */
    public long lastRanNs = NEVER_RAN;
    /** rq->cfs_tasks links (most recently run at the head), as task ids, -1 = none. */
    int lruPrev = -1;
    int lruNext = -1;
    boolean onLru;
    /** Cache model: the CPU whose caches hold its data, and that CPU's touch counter when it left. */
    public int cacheCpu = -1;
    public long cacheMark;
    /** SIS_CACHE: last_dequeue_time / last_dequeue_cpu / avg_hot_dur. */
    public long lastDequeueTime;
    public int lastDequeueCpu = -1;
    public long avgHotDur;

    public long cpuNs;
    public long workDoneNs;
    public long contextSwitches;
    public long migrations;
    public long wakeups;

    public Task(int id, WorkloadRun workload, int index, TaskGroup group, boolean[] allowed, int nice, long weight) {
        this.id = id;
        this.workload = workload;
        this.index = index;
        this.group = group;
        this.allowed = allowed;
        int n = 0;
        for (int c = 0; allowed != null && c < allowed.length; c++) {
            n += allowed[c] ? 1 : 0;
        }
        this.oneCpu = n == 1;
        this.nice = nice;
        this.se = new Entity(this, null, weight);
    }

    public TaskState state() {
        return TaskState.of(state);
    }

    public boolean is(TaskState s) {
        return state == s.ordinal();
    }

    public void setState(TaskState s) {
        state = s.ordinal();
    }

    public boolean allowedOn(int c) {
        return allowed == null || allowed[c];
    }

    // ------------------------------------------------------------------------------------------------
    // What its program can do (SimThread)

    @Override
    public int index() {
        return index;
    }

    @Override
    public Action run(long ns) {
        remainingWork = ns;
        infinite = false;
        spinNs = 0;
        clockRun = workload.threadClock;
        if (clockRun) {
            clockRunNs = ns;
            clockRunUntil = -1;
        }
        return Action.RUN;
    }

    @Override
    public Action runForever() {
        remainingWork = Long.MAX_VALUE / 4;
        infinite = true;
        clockRun = false;
        return Action.RUN;
    }

    @Override
    public Action spin(long ns) {
        remainingWork = ns;
        infinite = false;
        spinNs = ns;
        spinUntil = -1;
        clockRun = false;
        return Action.RUN;
    }

    @Override
    public Action sleep(long ns) {
        return sleep(ns, 0);
    }

    @Override
    public Action sleep(long ns, long slackNs) {
        sleepNs = ns + slackNs;
        sleepSlackNs = slackNs;
        return Action.SLEEP;
    }

    @Override
    public long now() {
        return workload.ops.now() - workload.originNs;
    }

    @Override
    public SplittableRandom random() {
        return workload.ops.random();
    }

    @Override
    public void wake(int thread, boolean sync) {
        workload.ops.tryToWakeUp(workload.tasks[thread], cpu, sync);
    }

    @Override
    public int unreadWakes(int thread) {
        Task t = (Task) workload.tasks[thread];
        return t.is(TaskState.BLOCKED) ? 0 : t.pendingWakes;
    }

    /**
     * Its next action, the previous segment just ended (or it was just woken or created): its program's next
     * step, skipping empty run segments and consuming a wake that arrived before a block (like a pipe with a byte
     * in it).
     */
    public Action next() {
        for (int guard = 0; guard < 1_000_000; guard++) {
            Action a = workload.step(index, this);
            if (a == Action.RUN && remainingWork <= 0 && !infinite) {
                continue;
            }
            if (a == Action.BLOCK && pendingWakes > 0) {
                pendingWakes--;
                continue;
            }
            return a;
        }
        throw new IllegalStateException("workload " + workload.spec.name() + " makes no progress");
    }
}
