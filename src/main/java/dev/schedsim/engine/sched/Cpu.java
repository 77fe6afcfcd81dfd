package dev.schedsim.engine.sched;

import dev.schedsim.engine.pelt.Pelt;

/**
 * A {@code struct rq}: one logical CPU's run queue, current task, idle state and counters. Each group of fields
 * names the class that writes it.
 */
public final class Cpu {
    public final int id;
    public final int core;
    public final CfsRq root;

    // --- RunQueues: rq->curr, rq->nr_running, rq->cfs_tasks ---
    public Task curr;
    /** rq->nr_running: tasks counted as runnable on this CPU (DELAY_DEQUEUE's delayed sleepers included). */
    public int nrRunning;
    /** Of those, the delayed sleepers (rq->cfs.h_nr_queued − h_nr_runnable); kept by FairQueue. */
    public int nrDelayed;
    /**
     * rq->cfs_tasks list ends, as task ids, -1 = none (int links keep the garbage collector's write barrier off
     * this hot list).
     */
    int lruHead = -1;
    int lruTail = -1;

    // --- core.Scheduler: __schedule() and the switch ---
    /** TIF_NEED_RESCHED (set by {@link Resched}). */
    boolean needResched;
    /** The task that ran here last (a switch to the same task costs nothing). */
    public Task lastRan;
    /** The exit latency of the idle state the CPU is leaving (0 when it is not), charged to what it wakes. */
    public long idleExitNs;
    /** A wakeup's IPI is on its way to this idle CPU: its idle exit starts this much later (WakeIpi). */
    public long ipiDelayNs;
    /** Counted busy (core SMT occupancy, busy time) from a switch-in until it goes idle. */
    public boolean busy;
    /** The idle state's exit latency has passed; the next schedule() may switch in. */
    public boolean idleExitDone;
    public long idleSince;
    public long busyNs;
    public long lastBusyStart = -1;
    /**
     * When the CPU last came out of idle (-1: never), for MachineNoise.AfterHalt; lastBusyStart, set with it, moves
     * to the report's start (startReport()), this does not.
     */
    public long haltEndedAt = -1;
    /** When this CPU's next tick is due. */
    public long nextTick;
    /** Its ticks' offset from the jiffy: 0, or its share of half a tick with sched_skew_tick (set once). */
    public long tickSkewNs;

    // --- fair.UpdateCurr: update_curr()'s clock for curr (exec_start, on the task clock below) ---
    public long execClock;

    // --- core.HostStalls: the vCPU preempted by its host ---
    /** The end of the host's preemption in progress, 0 when none; a schedule() asked meanwhile waits for it. */
    public long stolenUntil;
    public boolean reschedAfterStall;

    // --- RqClock: rq->clock_task (update_rq_clock_task()) ---
    /** Interrupt time (IRQ_TIME_ACCOUNTING) and steal time taken out of clock_task so far, and still to be, ns. */
    long nonTaskTaken;
    public long nonTaskPending;
    /** The wall time up to which the pending time has been taken out (rq->clock at the last update). */
    long clockWall;

    // --- machine.Execution: work accounting of curr, and the scheduler work it has not absorbed ---
    /** Since when curr's work was last settled, and at which rate (1024 = full single-thread speed). */
    public long workSince;
    public int rate = 1024;
    /** Scheduler work charged to this CPU that the current task's work has not yet absorbed, ns. */
    public long overheadDebt;
    /** All scheduler overhead charged to this CPU, ns. */
    public long overheadNs;

    // --- fair.LoadTracking ---
    /** PELT of the root cfs_rq: load (its load.weight), runnable (h_nr_running), util (running). */
    public final Pelt pelt = new Pelt();
    /**
     * rq->leaf_cfs_rq_list: the non-root cfs_rqs of this CPU that had tasks recently (list_add_leaf_cfs_rq() when
     * one gets its first entity; update_blocked_averages() drops the fully decayed ones).
     */
    public CfsRq[] leaf = new CfsRq[4];
    public int nLeaf;

    // --- machine.CacheModel: KiB of footprint switched in here so far ---
    public long kbTouched;

    // --- fair.SisCache: SIS_CACHE's rq->cache_hot_timeout; select: SIS_PROP's wake_avg_idle, wake_stamp (jiffies) ---
    public long cacheHotTimeout;
    public long wakeAvgIdle;
    public long wakeStamp;

    // --- balance.NewidleBalance and ttwu (core.Wakeup): rq->idle_stamp, rq->avg_idle, rq->max_idle_balance_cost ---
    public long idleStamp;
    public long avgIdle;
    public long maxIdleBalanceCost;

    public Cpu(int id, int core, CfsRq root) {
        this.id = id;
        this.core = core;
        this.root = root;
        // sched_init(): avg_idle = 2 × migration cost, max_idle_balance_cost = migration cost, and (5.13's "Age
        // the average idle time") wake_avg_idle = avg_idle, wake_stamp = jiffies (0 at the run's start).
        this.avgIdle = 2 * Tunables.MIGRATION_COST_NS;
        this.wakeAvgIdle = this.avgIdle;
        this.maxIdleBalanceCost = Tunables.MIGRATION_COST_NS;
    }

    /** list_add_leaf_cfs_rq(): a non-root cfs_rq got its first entity. */
    public void addLeaf(CfsRq q) {
        if (q.onLeafList) {
            return;
        }
        if (nLeaf == leaf.length) {
            leaf = java.util.Arrays.copyOf(leaf, nLeaf * 2);
        }
        q.onLeafList = true;
        leaf[nLeaf++] = q;
    }

    /**
     * list_del_leaf_cfs_rq() of the {@code i}-th leaf (a fully decayed cfs_rq, __update_blocked_fair()): the last
     * leaf takes its place, so a walk over the list examines index {@code i} again.
     */
    public void delLeaf(int i) {
        leaf[i].onLeafList = false;
        leaf[i] = leaf[--nLeaf];
        leaf[nLeaf] = null;
    }

    /** available_idle_cpu(): nothing running and nothing queued. */
    public boolean idle() {
        return curr == null && nrRunning == 0;
    }
}
