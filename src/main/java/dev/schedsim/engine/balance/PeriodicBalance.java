package dev.schedsim.engine.balance;

import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;

/**
 * The periodic balance (kernel/sched/fair.c): sched_balance_trigger() from a busy CPU's tick raises the
 * SCHED_SOFTIRQ when rq->next_balance is due, which runs sched_balance_domains() bottom-up; and
 * nohz_balancer_kick(), by which a busy CPU with work to spare has an idle CPU balance on behalf of every idle CPU
 * (_nohz_idle_balance()). Serializing levels take {@code sched_balance_running} first ({@link BalanceSerialize});
 * before seed 004's BALANCE_DUE_BEFORE_SERIALIZE even when the level is not due.
 */
public final class PeriodicBalance {
    private final SchedDomains sd;
    private final Cpu[] cpus;
    private final Topology topo;
    private final SchedDomainShared shared;
    private final LoadTracking pelt;
    private final SchedBalanceRq balanceRq;
    private final NewidleBalance newidle;
    private final BalanceSerialize serialize;
    private final boolean dueBeforeSerialize; // BALANCE_DUE_BEFORE_SERIALIZE
    private long nohzNextBalance;

    PeriodicBalance(KernelConfig kernel, SchedDomains sd, Cpu[] cpus, Topology topo, SchedDomainShared shared,
                    LoadTracking pelt, SchedBalanceRq balanceRq, NewidleBalance newidle,
                    BalanceSerialize serialize) {
        this.sd = sd;
        this.cpus = cpus;
        this.topo = topo;
        this.shared = shared;
        this.pelt = pelt;
        this.balanceRq = balanceRq;
        this.newidle = newidle;
        this.serialize = serialize;
        this.dueBeforeSerialize = kernel.on(Feature.BALANCE_DUE_BEFORE_SERIALIZE);
    }

    /** sched_balance_trigger(), from a CPU's tick (the SCHED_SOFTIRQ runs right after it). */
    public void schedBalanceTrigger(Cpu cpu) {
        long j = sd.jiffies();
        if (j >= sd.nextBalance[cpu.id]) {
            schedBalanceDomains(cpu.id, IdleType.CPU_NOT_IDLE);
        }
        // nohz_balancer_kick(): a busy CPU with work to spare, or in an LLC with more than one busy CPU, kicks an
        // idle CPU to balance on behalf of the idle ones.
        if (j >= nohzNextBalance && (cpu.nrRunning >= 2 || shared.nrBusyCpus[topo.llcOf(cpu.id)] > 1)) {
            nohzIdleBalance();
        }
    }

    /** _nohz_idle_balance(): the first idle CPU balances every idle CPU that is due. */
    private void nohzIdleBalance() {
        int ilb = -1;
        long next = Long.MAX_VALUE;
        long j = sd.jiffies();
        for (int c = 0; c < cpus.length; c++) {
            if (!cpus[c].idle()) {
                continue;
            }
            if (ilb < 0) {
                ilb = c;
            }
            if (j >= sd.nextBalance[c]) {
                schedBalanceDomains(c, IdleType.CPU_IDLE);
            }
            next = Math.min(next, sd.nextBalance[c]);
        }
        nohzNextBalance = ilb < 0 ? j + 1 : Math.max(j + 1, next);
    }

    /** sched_balance_domains(). */
    private void schedBalanceDomains(int cpu, IdleType idle) {
        long j = sd.jiffies();
        boolean busy = idle != IdleType.CPU_IDLE;
        boolean continueBalancing = true;
        long next = j + 60 * sd.hz;
        boolean needDecay = false;
        long maxCost = 0;
        pelt.updateBlockedAverages(cpu, false);
        for (int l = 0; l < sd.nl; l++) {
            needDecay |= newidle.updateNewidleCost(cpu, l, 0);
            maxCost += sd.maxNewidleCost[cpu][l];
            if (!continueBalancing) {
                if (needDecay) {
                    continue;
                }
                break;
            }
            DomainLevel level = sd.levels.get(l);
            long iv = sd.getSdBalanceInterval(cpu, l, busy);
            boolean serializing = level.serialize();
            boolean due = j >= sd.lastBalance[cpu][l] + iv;
            boolean needSerialize = serializing && (!dueBeforeSerialize || due); // BALANCE_DUE_BEFORE_SERIALIZE
            // Up to 6.18 the CAS comes before the "is it due?" check (seed 004 moves it after); a CPU that fails
            // it skips the level, which stays due for its next tick.
            if (needSerialize && !serialize.tryAcquire(cpu)) {
                next = Math.min(next, sd.lastBalance[cpu][l] + iv);
                continue;
            }
            long heldFrom = cpus[cpu].overheadNs;
            if (due) {
                if (balanceRq.schedBalanceRq(cpu, l, idle) > 0) {
                    idle = IdleType.CPU_NOT_IDLE;
                    busy = true;
                }
                continueBalancing = balanceRq.continueBalancing();
                sd.lastBalance[cpu][l] = j;
                iv = sd.getSdBalanceInterval(cpu, l, busy);
            }
            if (needSerialize) {
                // held while sched_balance_rq() ran: the CPU time the balance was charged
                serialize.release(cpus[cpu].overheadNs - heldFrom);
            }
            next = Math.min(next, sd.lastBalance[cpu][l] + iv);
        }
        if (needDecay) {
            cpus[cpu].maxIdleBalanceCost = Math.max(Tunables.MIGRATION_COST_NS, maxCost);
        }
        sd.nextBalance[cpu] = next;
    }
}
