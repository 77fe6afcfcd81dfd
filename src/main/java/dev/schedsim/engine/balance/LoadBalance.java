package dev.schedsim.engine.balance;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.RootDomain;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;

/**
 * Load balancing as kernel/sched/fair.c does it (sched_balance_domains(), sched_balance_rq(), sched_balance_newidle()), built for one run: the periodic balance
 * ({@link PeriodicBalance}), the newidle balance ({@link NewidleBalance}) and what they share — each CPU's
 * domains ({@link SchedDomains}), sched_balance_rq() and its steps, and the counters.
 *
 * <p>Costs are modelled (HardwareModel): each CPU examined by a balance costs {@code balancePerCpuNs},
 * update_blocked_averages costs {@code blockedAveragesPerCfsRqNs} per cfs_rq on the CPU's leaf list, and the CAS
 * on the shared flag is {@link BalanceSerialize}'s; with {@code busiestRqLock}, the busiest run queue's locked section
 * is {@link BusiestRqLock}'s. These costs are charged as CPU time where they happen and are
 * what the newidle cost tracking measures.
 *
 * <p><b>Limitations:</b> no asymmetric capacity, misfit or NUMA imbalance allowance; groups of a level are the
 * spans of the level below; load is the root cfs_rq's PELT load (cfs_rq_load_avg()).
 */
public final class LoadBalance {
    private final SchedDomains domains;
    private final BalanceCounters counters;
    private final PeriodicBalance periodic;
    private final NewidleBalance newidle;

    public LoadBalance(KernelConfig kernel, HardwareModel hw, Topology topo, Cpu[] cpus, SimClock clock,
                       RunQueues rqs, RootDomain rd, SchedDomainShared shared, LoadTracking pelt,
                       Execution execution, MigrationOps migration, long seed) {
        this.domains = new SchedDomains(topo, kernel, clock);
        this.counters = new BalanceCounters(domains.nl);
        FindBusiestGroup groups = new FindBusiestGroup(domains, cpus, pelt, rqs, shared, topo, rd);
        DetachTasks detach = new DetachTasks(kernel, domains, rqs, migration, clock, counters);
        SchedBalanceRq balanceRq = new SchedBalanceRq(hw, domains, cpus, execution, groups, detach, counters, clock,
                hw.busiestRqLock() ? new BusiestRqLock(topo, hw.lineTransferNs(), cpus.length) : null);
        this.newidle = new NewidleBalance(kernel, domains, cpus, clock, rd, pelt, execution, balanceRq,
                counters, seed);
        BalanceSerialize serialize = new BalanceSerialize(clock, topo, hw.lineTransferNs(), cpus, execution,
                counters);
        this.periodic = new PeriodicBalance(kernel, domains, cpus, topo, shared, pelt, balanceRq, newidle,
                serialize);
    }

    public PeriodicBalance periodic() {
        return periodic;
    }

    public NewidleBalance newidle() {
        return newidle;
    }

    public BalanceCounters counters() {
        return counters;
    }
}
