package dev.schedsim.engine.balance;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.topology.DomainLevel;

/**
 * sched_balance_rq() (load_balance() before 6.10, kernel/sched/fair.c) in the kernel's steps: should_we_balance(),
 * sched_balance_find_src_group() ({@link FindBusiestGroup}), sched_balance_find_src_rq() (find_busiest_queue()),
 * detach_tasks()/attach_tasks() ({@link DetachTasks}), and the failure bookkeeping that leads to active balance.
 * Each CPU of the domain examined costs {@code balancePerCpuNs}; the busiest queue's locked section is
 * {@link BusiestRqLock}'s when the hardware model has it.
 */
final class SchedBalanceRq {
    private final SchedDomains sd;
    private final Cpu[] cpus;
    private final Execution execution;
    private final FindBusiestGroup groups;
    private final DetachTasks detach;
    private final BalanceCounters counters;
    private final long balancePerCpuNs;
    private final SimClock clock;
    /** The busiest run queue's locked section, or null when the hardware model leaves it out. */
    private final BusiestRqLock busiestLock;
    /** should_we_balance()'s verdict for the levels above: false when another CPU is the balancer. */
    private boolean continueBalancing;

    SchedBalanceRq(HardwareModel hw, SchedDomains sd, Cpu[] cpus, Execution execution, FindBusiestGroup groups,
                   DetachTasks detach, BalanceCounters counters, SimClock clock, BusiestRqLock busiestLock) {
        this.clock = clock;
        this.busiestLock = busiestLock;
        this.sd = sd;
        this.cpus = cpus;
        this.execution = execution;
        this.groups = groups;
        this.detach = detach;
        this.counters = counters;
        this.balancePerCpuNs = hw.balancePerCpuNs();
    }

    /** Whether the last {@link #schedBalanceRq} lets the levels above be balanced by this CPU. */
    boolean continueBalancing() {
        return continueBalancing;
    }

    /** sched_balance_rq(): returns the number of tasks moved to {@code cpu}. */
    int schedBalanceRq(int cpu, int l, IdleType idle) {
        if (idle != IdleType.CPU_NEWLY_IDLE) {
            counters.loadBalances++;
        }
        continueBalancing = true;
        DomainLevel level = sd.levels.get(l);
        int[] span = level.spanOfCpu(cpu);
        Cpu dst = cpus[cpu];
        if (!shouldWeBalance(cpu, l, level, span, idle)) {
            continueBalancing = false;
            return outBalanced(cpu, l, idle);
        }
        long scan = balancePerCpuNs * span.length;
        execution.chargeOverhead(dst, scan);
        if (!groups.findBusiestGroup(cpu, l, idle)) {
            return outBalanced(cpu, l, idle);
        }
        int src = findSrcRq(span, sd.groupOfPos[l][level.spanOf()[cpu]]);
        if (src < 0) {
            return outBalanced(cpu, l, idle);
        }
        int moved = 0;
        Cpu busiestRq = cpus[src];
        if (busiestRq.nrRunning > 1) {
            moved = detach.detachAndAttachTasks(busiestRq, dst, l, idle, groups.type, groups.imbalance);
            if (busiestLock != null) {
                // rq_lock_irqsave(busiest) .. detach_tasks() .. rq_unlock(busiest), asked for after the scan
                execution.chargeOverhead(dst, busiestLock.lockedSection(cpu, src, clock.now + scan,
                        detach.examined, detach.detachedLevels));
            }
        }
        if (moved == 0) {
            if (idle != IdleType.CPU_NEWLY_IDLE) {
                sd.nrBalanceFailed[cpu][l]++;
            }
            if (groups.type == MigrationType.TASK && sd.nrBalanceFailed[cpu][l] > level.cacheNiceTries() + 2
                    && idle != IdleType.CPU_NEWLY_IDLE) {
                moved = detach.activeLoadBalanceCpuStop(busiestRq, dst);
                if (moved > 0) {
                    sd.nrBalanceFailed[cpu][l] = level.cacheNiceTries() + 1;
                }
            } else {
                sd.balanceInterval[cpu][l] = level.minIntervalMs(cpu);
            }
        } else {
            sd.nrBalanceFailed[cpu][l] = 0;
            sd.balanceInterval[cpu][l] = level.minIntervalMs(cpu);
        }
        return moved;
    }

    /**
     * should_we_balance(): a newly idle CPU balances when it still has nothing; otherwise only the first idle CPU
     * of the local group, or its first CPU when none is idle.
     */
    private boolean shouldWeBalance(int cpu, int l, DomainLevel level, int[] span, IdleType idle) {
        if (idle == IdleType.CPU_NEWLY_IDLE) {
            return cpus[cpu].nrRunning == 0;
        }
        int first = -1;
        int firstIdle = -1;
        int[] gop = sd.groupOfPos[l][level.spanOf()[cpu]];
        int myGroup = gop[sd.posInSpan[l][cpu]];
        for (int i = 0; i < span.length; i++) {
            int c = span[i];
            if (gop[i] != myGroup) {
                continue;
            }
            if (first < 0) {
                first = c;
            }
            if (firstIdle < 0 && cpus[c].idle()) {
                firstIdle = c;
            }
        }
        int balancer = firstIdle >= 0 ? firstIdle : first;
        return balancer == cpu;
    }

    /** sched_balance_find_src_rq() (find_busiest_queue()): the busiest CPU of the busiest group, or -1. */
    private int findSrcRq(int[] span, int[] groupOf) {
        int src = -1;
        long best = -1;
        MigrationType type = groups.type;
        for (int i = 0; i < span.length; i++) {
            if (groupOf[i] != groups.busiest) {
                continue;
            }
            int c = span[i];
            Cpu rq = cpus[c];
            int nr = rq.root.hNrRunning;
            if (nr == 0) {
                continue;
            }
            long v;
            if (type == MigrationType.LOAD) {
                v = rq.pelt.loadAvg();
                if (nr == 1 && v > groups.imbalance) {
                    continue;
                }
            } else if (type == MigrationType.UTIL) {
                if (nr <= 1) {
                    continue;
                }
                v = rq.pelt.utilAvg();
            } else {
                v = nr;
            }
            if (v > best) {
                best = v;
                src = c;
            }
        }
        return src;
    }

    /** The domain is balanced: reset the failures, back the interval off (periodic balances). */
    private int outBalanced(int cpu, int l, IdleType idle) {
        sd.nrBalanceFailed[cpu][l] = 0;
        DomainLevel level = sd.levels.get(l);
        if (idle != IdleType.CPU_NEWLY_IDLE && sd.balanceInterval[cpu][l] < level.maxIntervalMs(cpu)) {
            sd.balanceInterval[cpu][l] *= 2;
        }
        return 0;
    }
}
