package dev.schedsim.engine;

/** A {@code struct rq}: one logical CPU's run queue, current task, idle state and counters. */
final class Cpu {
    final int id;
    final int core;
    final CfsRq root;
    Task curr;
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
