package dev.schedsim.engine;

/** A {@code struct rq}: one logical CPU's run queue, current task, idle state and counters. */
final class Cpu {
    final int id;
    final int core;
    final CfsRq root;
    Task curr;
    /** The task that ran here last (a switch to the same task costs nothing). */
    Task lastRan;
    /** rq->nr_running: tasks counted as runnable on this CPU. */
    int nrRunning;
    boolean needResched;
    /** Woken from idle; the task switches in after the idle-state exit latency. */
    boolean exitingIdle;
    /** update_curr()'s clock for curr (exec_start). */
    long execClock;
    /** Work accounting of curr: since when, and at which rate (1024 = full single-thread speed). */
    long workSince;
    int rate = 1024;
    long idleSince;
    long busyNs;
    long lastBusyStart = -1;
    /** Counted busy (core SMT occupancy, busy time) from a switch-in until it goes idle. */
    boolean busy;
    long nextTick;
    /** When the current task's run slice began (trace). */
    long sliceStart;
    /** PELT of the root cfs_rq: load (its load.weight), runnable (h_nr_running), util (running). */
    final Pelt pelt = new Pelt();
    /**
     * rq->cfs_tasks list ends, as task ids, -1 = none (int links keep the garbage collector's write barrier off
     * this hot list).
     */
    int lruHead = -1;
    int lruTail = -1;
    /** Cache model: KiB of footprint switched in here so far. */
    long kbTouched;
    /** SIS_CACHE: rq->cache_hot_timeout. */
    long cacheHotTimeout;
    /** SIS_PROP: wake_avg_idle and wake_stamp (jiffies). */
    long wakeAvgIdle;
    long wakeStamp;
    /** Scheduler work charged to this CPU that the current task's work has not yet absorbed, ns. */
    long overheadDebt;
    /** All scheduler overhead charged to this CPU, ns. */
    long overheadNs;
    /**
     * rq->leaf_cfs_rq_list: the non-root cfs_rqs of this CPU that had tasks recently (list_add_leaf_cfs_rq() when
     * one gets its first entity; update_blocked_averages() drops the fully decayed ones).
     */
    CfsRq[] leaf = new CfsRq[4];
    int nLeaf;

    void addLeaf(CfsRq q) {
        if (q.onLeafList) {
            return;
        }
        if (nLeaf == leaf.length) {
            leaf = java.util.Arrays.copyOf(leaf, nLeaf * 2);
        }
        q.onLeafList = true;
        leaf[nLeaf++] = q;
    }

    Cpu(int id, int core, CfsRq root) {
        this.id = id;
        this.core = core;
        this.root = root;
    }

    /** available_idle_cpu(): nothing running and nothing queued. */
    boolean idle() {
        return curr == null && nrRunning == 0;
    }
}
