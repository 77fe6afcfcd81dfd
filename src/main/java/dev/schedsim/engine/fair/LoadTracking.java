package dev.schedsim.engine.fair;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.pelt.Pelt;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskState;
import dev.schedsim.engine.spec.HardwareModel;

/**
 * When the PELT signals are brought up to date (kernel/sched/fair.c's {@code update_load_avg()} and
 * {@code update_blocked_averages()}): a task's signal and each CPU's root cfs_rq signal, integrated up to now
 * before they change. Owns the flat copies of each CPU's averages that the balance loops read.
 */
public final class LoadTracking {
    /** A cfs_rq stays on the leaf list this long after it last had tasks (its PELT has decayed away). */
    public static final long LEAF_RETENTION_NS = 345_000_000L;

    private final Cpu[] cpus;
    private final SimClock clock;
    private final Execution execution;
    private final HardwareModel hw;
    /** Each CPU's root cfs_rq load, util and runnable averages as last updated (read by load balancing). */
    public final long[] cpuLoad;
    public final long[] cpuUtil;
    public final long[] cpuRunnable;

    public LoadTracking(Cpu[] cpus, SimClock clock, Execution execution, HardwareModel hw) {
        this.cpus = cpus;
        this.clock = clock;
        this.execution = execution;
        this.hw = hw;
        this.cpuLoad = new long[cpus.length];
        this.cpuUtil = new long[cpus.length];
        this.cpuRunnable = new long[cpus.length];
    }

    /**
     * update_load_avg() of a CPU's root cfs_rq: load (its load.weight), runnable (h_nr_running) and util
     * (running) integrated up to now.
     */
    public void updateLoadAvg(Cpu cpu) {
        Pelt pelt = cpu.pelt;
        if (!pelt.update(clock.now, cpu.root.load, cpu.root.hNrRunning, cpu.busy)) {
            return; // (the averages are what they were)
        }
        publish(cpu);
    }

    /**
     * update_load_avg() of a task's entity: load while queued, runnable while queued and not delayed
     * (se_runnable(): a DELAY_DEQUEUE sleeper still weighs on its queue but does not wait to run).
     */
    public void updateLoadAvg(Task p) {
        boolean queued = p.se.onRq;
        p.pelt.update(clock.now, queued ? p.se.weight : 0, queued && !p.se.delayed ? 1 : 0,
                p.is(TaskState.RUNNING));
    }

    /**
     * A task changes CPU (migrate_task_rq_fair() at set_task_cpu(), then the enqueue's DO_ATTACH): its averages,
     * decayed to now, leave the old CPU's sums (remove_entity_load_avg()) and join the new one's
     * (attach_entity_load_avg()), so the balancer sees the move at once instead of after the old CPU's signal has
     * decayed (a half-life of 32 ms). Called for a balance move, an active push and a wakeup on another CPU.
     *
     * <p>A grouped task's averages leave and join its group's cfs_rqs and reach the root through the group
     * entities at their next update (add_tg_cfs_propagate() → propagate_entity_load_avg(), since v4.10's
     * "sched/fair: Propagate load during synchronous attach/detach" and "... asynchrous detach", the latter a
     * migration's). Its util and runnable arrive whole: update_tg_cfs_util() and update_tg_cfs_runnable() copy
     * the group cfs_rq's averages into the group entity, level by level. Its load does not: update_tg_cfs_load()
     * recomputes the group entity's load_avg as its weight (the group's shares on that CPU) times a runnable
     * fraction estimated from the group's own sums, which the model does not keep (docs/model.md, "Group PELT at
     * a migration"); the root's load follows the group entities' weights as before.
     */
    public void migrateTaskLoad(Task p, Cpu src, Cpu dst) {
        updateLoadAvg(p);
        updateLoadAvg(src);
        updateLoadAvg(dst);
        long load = p.group.isRoot() ? p.pelt.loadAvg() : 0;
        long runnable = p.pelt.runnableAvg();
        long util = p.pelt.utilAvg();
        src.pelt.detach(load, runnable, util);
        dst.pelt.attach(load, runnable, util);
        publish(src);
        publish(dst);
    }

    private void publish(Cpu cpu) {
        cpuLoad[cpu.id] = cpu.pelt.loadAvg();
        cpuUtil[cpu.id] = cpu.pelt.utilAvg();
        cpuRunnable[cpu.id] = cpu.pelt.runnableAvg();
    }

    /**
     * update_blocked_averages(): decay every cfs_rq on the CPU's leaf list. Its cost grows with the number of
     * cfs_rqs that had tasks recently (fully decayed ones leave the list after ~LOAD_AVG_MAX periods; modelled as
     * {@link #LEAF_RETENTION_NS}). Charged to the CPU when {@code charge}; returns the cost.
     */
    public long updateBlockedAverages(int cpuId, boolean charge) {
        Cpu cpu = cpus[cpuId];
        updateLoadAvg(cpu);
        // __update_blocked_fair(): walk the leaf list, list_del_leaf_cfs_rq() the decayed ones.
        int leaves = 1;
        CfsRq[] leaf = cpu.leaf;
        long now = clock.now;
        for (int i = 0; i < cpu.nLeaf; ) {
            CfsRq q = leaf[i];
            if (q.nr > 0 || now - q.lastActiveNs < LEAF_RETENTION_NS) {
                leaves++;
                i++;
            } else {
                cpu.delLeaf(i);
            }
        }
        long cost = hw.blockedAveragesPerCfsRqNs() * leaves;
        if (charge) {
            execution.chargeOverhead(cpu, cost);
        }
        return cost;
    }
}
