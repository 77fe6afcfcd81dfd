package dev.schedsim.engine.core;

import dev.schedsim.engine.balance.PeriodicBalance;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.fair.GroupShares;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.fair.Preemption;
import dev.schedsim.engine.fair.UpdateCurr;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;

/**
 * sched_tick() (kernel/sched/core.c) with the fair class's task_tick_fair(): update_curr and update_cfs_group on
 * every level, CFS's check_preempt_tick(), the PELT updates, then sched_balance_trigger(). A CPU's tick runs while
 * it is busy (NO_HZ_IDLE stops it on an idle CPU).
 */
public final class Tick {
    private final SimClock clock;
    private final Timers timers;
    private final UpdateCurr updateCurr;
    private final GroupShares shares;
    private final Preemption preemption;
    private final LoadTracking pelt;
    private final PeriodicBalance balance;
    private final long tickNs;
    private final boolean eevdf; // EEVDF

    public Tick(KernelConfig kernel, SimClock clock, Timers timers, UpdateCurr updateCurr, GroupShares shares,
                Preemption preemption, LoadTracking pelt, PeriodicBalance balance) {
        this.clock = clock;
        this.timers = timers;
        this.updateCurr = updateCurr;
        this.shares = shares;
        this.preemption = preemption;
        this.pelt = pelt;
        this.balance = balance;
        this.tickNs = kernel.tickNs();
        this.eevdf = kernel.on(Feature.EEVDF);
    }

    /** The first tick of a CPU whose ticks are {@code skewNs} after the jiffy, after {@code now}. */
    static long nextTickAfter(long now, long tickNs, long skewNs) {
        return Math.floorDiv(now - skewNs, tickNs) * tickNs + tickNs + skewNs;
    }

    /** sched_tick(). */
    void schedTick(Cpu cpu) {
        Task p = cpu.curr;
        if (p != null) {
            updateCurr.updateCurr(cpu);
            // task_tick_fair(): entity_tick() on every level
            for (Entity se = p.se; se != null; se = se.parent) {
                if (se.my != null) {
                    shares.updateCfsGroup(se);
                }
                if (!eevdf && se.cfsRq.nr > 1) { // EEVDF (off: CFS)
                    preemption.checkPreemptTick(cpu, se.cfsRq, se);
                }
            }
        }
        pelt.updateLoadAvg(cpu);
        if (p != null) {
            pelt.updateLoadAvg(p);
        }
        cpu.nextTick += tickNs;
        if (cpu.nextTick <= clock.now) {
            // a tick the host made late (HostStalls): tick_sched_timer()'s hrtimer_forward() to the next period
            cpu.nextTick = nextTickAfter(clock.now, tickNs, cpu.tickSkewNs);
        }
        timers.queue.arm(timers.tick(cpu.id), cpu.nextTick, Timers.PRIO_TICK);
        // sched_balance_trigger(): the SCHED_SOFTIRQ runs right after the tick.
        balance.schedBalanceTrigger(cpu);
    }
}
