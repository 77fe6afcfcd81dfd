package dev.schedsim.engine.balance;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.RootDomain;
import java.util.SplittableRandom;

/**
 * sched_balance_newidle() (newidle_balance() before 6.10, kernel/sched/fair.c): a CPU that found nothing to run
 * pulls from its domains bottom-up, gated by avg_idle against each domain's max_newidle_lb_cost and by
 * rd->overloaded, within a cumulative cost budget; the cost it measures per domain feeds max_newidle_lb_cost
 * (update_newidle_cost()) and its decay. The seed 003 features change which costs are paid and counted
 * (NEWIDLE_COST_BLOCKED_AVERAGES, NEWIDLE_DECAY_AFTER_WAIT, NEWIDLE_MIGRATION_COST_GATE), never the costs
 * themselves; THROTTLE_IDLE_BALANCE (seed 001) lets a CPU whose tasks were just throttled balance at all.
 * NI_RANDOM (6.19, 6.18.5+) balances each domain only with the probability of its recent success.
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
    private final boolean niRandom; // NI_RANDOM
    /** sched_rng(): each CPU's own generator (the kernel's per-CPU prandom state), seeded from the run's seed. */
    private final SplittableRandom[] rng;

    NewidleBalance(KernelConfig kernel, SchedDomains sd, Cpu[] cpus, SimClock clock, RootDomain rd,
                   LoadTracking pelt, Execution execution, SchedBalanceRq balanceRq, BalanceCounters counters,
                   long seed) {
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
        this.niRandom = kernel.on(Feature.NI_RANDOM);
        // A generator of its own (not the run's): a profile without NI_RANDOM draws exactly what it drew before.
        SplittableRandom base = new SplittableRandom(seed * 0xD1B54A32D192ED03L + 0x8CB92BA72F3D8DD7L);
        this.rng = new SplittableRandom[cpus.length];
        for (int c = 0; c < cpus.length; c++) {
            rng[c] = base.split();
        }
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
        boolean deferred = !rd.overloaded()
                || (migrationCostGate && cpu.avgIdle < Tunables.MIGRATION_COST_NS); // NEWIDLE_MIGRATION_COST_GATE
        if (deferred || cpu.avgIdle < sd.maxNewidleCost[c][0]) {
            if (!deferred && !costBlockedAverages) { // NEWIDLE_COST_BLOCKED_AVERAGES (off)
                // Before 5.16 (9d783c8dd112) only the first gate came before update_blocked_averages(); the
                // first domain's avg_idle < max_newidle_lb_cost broke the loop after it.
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
            int weight = 1;
            if (niRandom) { // NI_RANDOM: a 1024-sided die against the domain's success rate
                int d1k = rng[c].nextInt() & 1023;
                weight = 1 + sd.newidleRatio[c][l];
                if (d1k > weight) {
                    updateNewidleStats(c, l, 0);
                    continue;
                }
                weight = (1024 + weight / 2) / weight;
            }
            long before = cpu.overheadNs;
            pulled = balanceRq.schedBalanceRq(c, l, IdleType.CPU_NEWLY_IDLE);
            long domainCost = cpu.overheadNs - before + pending;
            spent += cpu.overheadNs - before;
            pending = 0;
            if (niRandom) {
                // update_newidle_cost() counts the call when its cost is not 0, i.e. on this path (the periodic
                // balance's decay passes 0); the model's cost can be 0 on a machine without overheads.
                updateNewidleStats(c, l, pulled > 0 ? weight : 0);
            }
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
     * update_newidle_stats() (NI_RANDOM): count a newidle call and its weighted success; every 1024 calls the
     * success count becomes the ratio and both counts halve.
     */
    private void updateNewidleStats(int cpu, int l, int success) {
        int calls = ++sd.newidleCall[cpu][l];
        sd.newidleSuccess[cpu][l] += success;
        if (calls >= 1024) {
            sd.newidleRatio[cpu][l] = sd.newidleSuccess[cpu][l];
            sd.newidleCall[cpu][l] = calls / 2;
            sd.newidleSuccess[cpu][l] /= 2;
        }
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
