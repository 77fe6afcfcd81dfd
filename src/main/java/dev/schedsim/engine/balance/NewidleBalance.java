package dev.schedsim.engine.balance;

import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.Tunables;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.pelt.LoadTracking;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.RootDomain;

/**
 * sched_balance_newidle() (newidle_balance() before 6.10, kernel/sched/fair.c): a CPU that found nothing to run
 * pulls from its domains bottom-up, gated by avg_idle against each domain's max_newidle_lb_cost and by
 * rd->overloaded, within a cumulative cost budget; the cost it measures per domain feeds max_newidle_lb_cost
 * (update_newidle_cost()) and its decay. The seed 003 features change which costs are paid and counted
 * (NEWIDLE_COST_BLOCKED_AVERAGES, NEWIDLE_DECAY_AFTER_WAIT, NEWIDLE_MIGRATION_COST_GATE), never the costs
 * themselves; THROTTLE_IDLE_BALANCE (seed 001) lets a CPU whose tasks were just throttled balance at all.
 */
public final class NewidleBalance {
    private final SchedDomains sd;
    private final Cpu[] cpus;
    private final SimClock clock;
    private final RootDomain rd;
    private final LoadTracking pelt;
    private final BalanceCounters counters;
    private final Execution execution;
    private final SchedBalanceRq balanceRq;
    private final boolean costBlockedAverages; // NEWIDLE_COST_BLOCKED_AVERAGES
    private final boolean decayAfterWait; // NEWIDLE_DECAY_AFTER_WAIT
    private final boolean migrationCostGate; // NEWIDLE_MIGRATION_COST_GATE
    private final boolean throttleIdleBalance; // THROTTLE_IDLE_BALANCE

    NewidleBalance(KernelConfig kernel, SchedDomains sd, Cpu[] cpus, SimClock clock, RootDomain rd,
                   LoadTracking pelt, Execution execution, SchedBalanceRq balanceRq, BalanceCounters counters) {
        this.execution = execution;
        this.balanceRq = balanceRq;
        this.sd = sd;
        this.cpus = cpus;
        this.clock = clock;
        this.rd = rd;
        this.pelt = pelt;
        this.counters = counters;
        this.costBlockedAverages = kernel.on(Feature.NEWIDLE_COST_BLOCKED_AVERAGES);
        this.decayAfterWait = kernel.on(Feature.NEWIDLE_DECAY_AFTER_WAIT);
        this.migrationCostGate = kernel.on(Feature.NEWIDLE_MIGRATION_COST_GATE);
        this.throttleIdleBalance = kernel.on(Feature.THROTTLE_IDLE_BALANCE);
    }

    /**
     * sched_balance_newidle(): returns the number of tasks pulled.
     *
     * @param throttledNow a cfs_rq of the previous task was throttled in this very schedule(); before seed 001's
     *                     THROTTLE_IDLE_BALANCE the tasks still counted in nr_running then, so the idle balance was
     *                     not attempted.
     */
    public int schedBalanceNewidle(Cpu cpu, boolean throttledNow) {
        if (throttledNow && !throttleIdleBalance) { // THROTTLE_IDLE_BALANCE
            return 0;
        }
        int c = cpu.id;
        cpu.idleStamp = clock.now;
        if (sd.nl == 0) {
            return 0;
        }
        boolean gate = !rd.overloaded() || cpu.avgIdle < sd.maxNewidleCost[c][0]
                || (migrationCostGate && cpu.avgIdle < Tunables.MIGRATION_COST_NS); // NEWIDLE_MIGRATION_COST_GATE
        if (gate) {
            if (!costBlockedAverages) { // NEWIDLE_COST_BLOCKED_AVERAGES (off)
                // Before 5.16 blocked averages were updated even when the balance was deferred.
                pelt.updateBlockedAverages(c, true);
            }
            sd.nextBalance[c] = Math.min(sd.nextBalance[c], sd.lastBalance[c][0] + sd.getSdBalanceInterval(c, 0,
                    false));
            return 0;
        }
        counters.newidleBalances++;
        long first = pelt.updateBlockedAverages(c, true);
        long pending = costBlockedAverages ? first : 0; // NEWIDLE_COST_BLOCKED_AVERAGES
        long currCost = 0;
        int pulled = 0;
        long spent = first;
        for (int l = 0; l < sd.nl; l++) {
            sd.nextBalance[c] = Math.min(sd.nextBalance[c], sd.lastBalance[c][l] + sd.getSdBalanceInterval(c, l,
                    false));
            if (cpu.avgIdle < currCost + sd.maxNewidleCost[c][l]) {
                break;
            }
            long before = cpu.overheadNs;
            pulled = balanceRq.schedBalanceRq(c, l, IdleType.CPU_NEWLY_IDLE);
            long domainCost = cpu.overheadNs - before + pending;
            spent += cpu.overheadNs - before;
            pending = 0;
            updateNewidleCost(c, l, domainCost);
            counters.sampleNewidleCost(l, sd.maxNewidleCost[c][l]);
            currCost += domainCost;
            if (pulled > 0 || cpus[c].nrRunning > 0) {
                break;
            }
        }
        cpu.maxIdleBalanceCost = Math.max(cpu.maxIdleBalanceCost, currCost);
        if (pulled > 0 || cpu.nrRunning > 0) {
            cpu.idleStamp = 0;
            // The pulled task starts after the balancing work is done.
            execution.stall(cpu, spent);
        }
        return pulled;
    }

    /**
     * update_newidle_cost(): raise the domain's max cost, or decay it by 253/256 — since 5.16 only after a second
     * without a new maximum (NEWIDLE_DECAY_AFTER_WAIT), before that once a second regardless.
     */
    boolean updateNewidleCost(int cpu, int l, long cost) {
        long j = sd.jiffies();
        long[] max = sd.maxNewidleCost[cpu];
        long[] lastDecay = sd.lastDecay[cpu];
        if (decayAfterWait) { // NEWIDLE_DECAY_AFTER_WAIT
            if (cost > max[l]) {
                max[l] = cost;
                lastDecay[l] = j;
            } else if (j > lastDecay[l] + sd.hz) {
                max[l] = max[l] * 253 / 256;
                lastDecay[l] = j;
                return true;
            }
            return false;
        }
        if (cost > 0) {
            if (cost > max[l]) {
                max[l] = cost;
            }
            return false;
        }
        if (j > lastDecay[l]) {
            max[l] = max[l] * 253 / 256;
            lastDecay[l] = j + sd.hz;
            return true;
        }
        return false;
    }
}
