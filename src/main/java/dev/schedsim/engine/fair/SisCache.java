package dev.schedsim.engine.fair;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * SIS_CACHE (seed 002, patch 2, never merged): a short sleeper that leaves its CPU empty marks it cache-hot for
 * its average short sleep, and select_idle_cpu() passes over cache-hot idle CPUs ({@code select.SelectIdleSibling}).
 * The bookkeeping at dequeue and at wakeup is kept whether or not the feature is on, as the patch does.
 */
public final class SisCache {
    private final SimClock clock;
    private final boolean on; // SIS_CACHE

    public SisCache(KernelConfig kernel, SimClock clock) {
        this.clock = clock;
        this.on = kernel.on(Feature.SIS_CACHE);
    }

    /** Whether select_idle_cpu() skips cache-hot idle CPUs. */
    public boolean on() {
        return on;
    }

    /** Whether CPU c is cache-hot for a recent short sleeper. */
    public boolean cacheHot(Cpu c) {
        return clock.now < c.cacheHotTimeout;
    }

    /** At a sleep's dequeue: remember when and where the task went to sleep; mark its emptied CPU hot. */
    public void dequeued(Task p, Cpu cpu) {
        long now = clock.now;
        p.lastDequeueTime = now;
        p.lastDequeueCpu = cpu.id;
        if (cpu.nrRunning == 0 && p.avgHotDur != 0) {
            cpu.cacheHotTimeout = Math.max(cpu.cacheHotTimeout, now + p.avgHotDur);
        }
    }

    /** At wakeup: update_avg(&avg_hot_dur, sleep) for sleeps under the migration cost. */
    public void woken(Task p) {
        if (p.lastDequeueTime == 0) {
            return;
        }
        long sleep = clock.now - p.lastDequeueTime;
        if (sleep < Tunables.MIGRATION_COST_NS) {
            p.avgHotDur += (sleep - p.avgHotDur) / 8;
        } else {
            p.avgHotDur >>= 1;
        }
    }
}
