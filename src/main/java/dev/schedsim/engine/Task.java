package dev.schedsim.engine;

/** A {@code struct task_struct}: one simulated thread, its entity, its program state and its counters. */
final class Task {
    static final int NEW = 0;
    static final int RUNNABLE = 1;
    static final int RUNNING = 2;
    /** Sleeping on a timer. */
    static final int SLEEPING = 3;
    /** Blocked until another task wakes it. */
    static final int BLOCKED = 4;
    /** Parked on a throttled cfs_rq's limbo list (6.18 task-based throttle). */
    static final int THROTTLED = 5;
    static final int DONE = 6;

    final int id;
    final WorkloadRun workload;
    final TaskGroup group;
    final Entity se;
    /** Allowed CPUs (p->cpus_ptr); null = all. */
    final boolean[] allowed;
    final int nice;
    int state = NEW;
    /** The CPU the task is queued on or last ran on (task_cpu). */
    int cpu = -1;
    /** p->recent_used_cpu. */
    int recentUsedCpu = -1;
    /** Work left in the current run segment, in ns of full single-thread speed. */
    long remainingWork;
    /** The segment runs forever (cpu-bound without workUs). */
    boolean infinite;
    /**
     * A wall-clock spin (schbench's usec_spin()): the segment lasts {@code spinNs} of wall time from the moment
     * the task first runs it, whatever its speed and however long it waits meanwhile; 0 = a work segment.
     */
    long spinNs;
    /** The wall time the current spin ends, or -1 before the task has started running it. */
    long spinUntil = -1;
    /** Time of the pending wakeup (for wakeup latency), or -1. */
    long wakeTime = -1;
    /** A wake that arrived before the task blocked (like a pipe with a byte in it). */
    int pendingWakes;
    /** Workload program counter and scratch. */
    int pc;
    int aux;
    long auxLong;
    /** This task's peer (request-response, schbench message thread). */
    Task peer;
    /** wake_wide() bookkeeping: record_wakee(). */
    Task lastWakee;
    int wakeeFlips;
    long wakeeFlipDecayTs;

    /** PELT of this task (util_avg, load_avg). */
    final Pelt pelt = new Pelt();
    /** When it last stopped running (se.exec_start for task_hot()). */
    long lastRanNs = Long.MIN_VALUE / 2;
    /** rq->cfs_tasks links (most recently run at the head), as task ids, -1 = none. */
    int lruPrev = -1;
    int lruNext = -1;
    boolean onLru;
    /** Cache model: the CPU whose caches hold its data, and that CPU's touch counter when it left. */
    int cacheCpu = -1;
    long cacheMark;
    /** SIS_CACHE: last_dequeue_time / last_dequeue_cpu / avg_hot_dur. */
    long lastDequeueTime;
    int lastDequeueCpu = -1;
    long avgHotDur;

    long cpuNs;
    long workDoneNs;
    long contextSwitches;
    long migrations;
    long wakeups;

    Task(int id, WorkloadRun workload, TaskGroup group, boolean[] allowed, int nice, long weight) {
        this.id = id;
        this.workload = workload;
        this.group = group;
        this.allowed = allowed;
        this.nice = nice;
        this.se = new Entity(this, null);
        this.se.weight = weight;
    }

    boolean allowedOn(int c) {
        return allowed == null || allowed[c];
    }
}
