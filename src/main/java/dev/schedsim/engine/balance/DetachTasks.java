package dev.schedsim.engine.balance;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.GroupShares;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.DomainLevel;

/**
 * What load balancing moves (kernel/sched/fair.c): detach_tasks() from the busiest run queue's cfs_tasks list,
 * least recently run first, respecting can_migrate_task() and task_hot(), then attach_tasks(); and, after
 * repeated failures, the active balance that pushes the busiest CPU's running task
 * (active_load_balance_cpu_stop()).
 */
final class DetachTasks {
    /** sysctl_sched_nr_migrate. */
    static final int NR_MIGRATE = 32;

    private final SchedDomains sd;
    private final RunQueues rqs;
    private final MigrationOps migration;
    private final SimClock clock;
    private final BalanceCounters counters;
    private final boolean taskThrottle; // TASK_BASED_THROTTLE
    private final Task[] detached = new Task[NR_MIGRATE + 1];
    /** The last detach_tasks(): tasks examined (env->loop) and the hierarchy levels of the tasks it detached. */
    int examined;
    int detachedLevels;

    DetachTasks(KernelConfig kernel, SchedDomains sd, RunQueues rqs, MigrationOps migration, SimClock clock,
                BalanceCounters counters) {
        this.sd = sd;
        this.rqs = rqs;
        this.migration = migration;
        this.clock = clock;
        this.counters = counters;
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
    }

    /** detach_tasks() + attach_tasks(): returns the number of tasks moved from src to dst. */
    int detachAndAttachTasks(Cpu src, Cpu dst, int l, IdleType idle, MigrationType type, long imbalance) {
        DomainLevel level = sd.levels.get(l);
        int loopMax = Math.min(NR_MIGRATE, src.nrRunning);
        int n = 0;
        int loop = 0;
        Task p = rqs.lruTail(src);
        while (p != null) {
            Task prevInList = rqs.lruPrev(p);
            if (idle != IdleType.CPU_NOT_IDLE && src.nrRunning - n <= 1) {
                break;
            }
            if (++loop > loopMax) {
                break;
            }
            if (canMigrateTask(p, src, dst, level, l)) {
                boolean take = true;
                if (type == MigrationType.LOAD) {
                    long load = Math.max(GroupShares.taskHLoad(p), 1);
                    if ((load >> Math.min(sd.nrBalanceFailed[dst.id][l], 62)) > imbalance) {
                        take = false;
                    } else {
                        imbalance -= load;
                    }
                } else if (type == MigrationType.UTIL) {
                    long util = p.pelt.utilAvg();
                    if (util > imbalance) {
                        take = false;
                    } else {
                        imbalance -= util;
                    }
                } else {
                    imbalance--;
                }
                if (take) {
                    detached[n++] = p;
                    if (idle == IdleType.CPU_NEWLY_IDLE || imbalance <= 0 || n == detached.length) {
                        break;
                    }
                }
            }
            p = prevInList;
        }
        examined = Math.min(loop, loopMax);
        detachedLevels = 0;
        // attach_tasks()
        for (int i = 0; i < n; i++) {
            detachedLevels += detached[i].group.depth + 1;
            migration.moveQueuedTask(detached[i], dst.id);
            detached[i] = null;
        }
        counters.tasksMoved += n;
        if (idle == IdleType.CPU_NEWLY_IDLE) {
            counters.newidlePulls += n;
        }
        return n;
    }

    /** can_migrate_task() with task_hot(). */
    private boolean canMigrateTask(Task p, Cpu src, Cpu dst, DomainLevel level, int l) {
        if (!taskThrottle && (p.group.rq[src.id].throttleCount > 0 || p.group.rq[dst.id].throttleCount > 0)) {
            return false; // throttled_lb_pair() (removed with TASK_BASED_THROTTLE)
        }
        if (!p.allowedOn(dst.id) || src.curr == p) {
            return false;
        }
        if (p.se.delayed) {
            // A DELAY_DEQUEUE sleeper: the kernel moves one only to migrate load (can_migrate_task()); the model
            // never does, so a delayed task always finishes its dequeue where it slept.
            return false;
        }
        boolean hot = !level.shareCapacity() && clock.now - p.lastRanNs < Tunables.MIGRATION_COST_NS;
        return !hot || sd.nrBalanceFailed[dst.id][l] > level.cacheNiceTries();
    }

    /** active_load_balance_cpu_stop(): the stopper preempts busiest's current task and pushes it. */
    int activeLoadBalanceCpuStop(Cpu src, Cpu dst) {
        Task p = src.curr;
        if (p == null || !p.allowedOn(dst.id) || src.nrRunning < 1) {
            return 0;
        }
        counters.activeBalances++;
        migration.pushRunningTask(src, p, dst.id);
        counters.tasksMoved++;
        return 1;
    }
}
