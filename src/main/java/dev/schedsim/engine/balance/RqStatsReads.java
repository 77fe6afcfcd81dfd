package dev.schedsim.engine.balance;

import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.topology.Topology;

/**
 * (model) What update_sd_lb_stats() and detach_tasks() cost the balancing CPU: update_sg_lb_stats() visits every CPU of the domain and
 * reads its rq's statistics — rq->nr_running, rq->cfs.h_nr_running and the root cfs_rq's PELT averages for
 * cpu_load(), cpu_util_cfs() and cpu_runnable() (kernel/sched/fair.c). The loop body is short ({@code perCpuNs},
 * HardwareModel.balancePerCpuNs); what it costs beyond that is where the lines are. A line the balancing CPU read
 * before and nobody wrote since is still in its cache; a line its owner wrote since (every enqueue, dequeue and
 * update_load_avg() on that rq does) is a miss served from the owner's cache, a line transfer by distance
 * ({@code lineTransferNs}: same core, same LLC, same socket, another socket). So the same balance costs little on
 * an idle machine and most on a busy one, and a CPU that balanced a moment ago pays only for what changed since.
 *
 * <p>An rq counts as written since a time when its CPU is busy now (it switches and ticks: its statistics change
 * all the time) or went idle after it (the dequeue that emptied it wrote them). A busy CPU running one long task
 * writes its lines only at its ticks; this counts it dirty anyway (an overestimate for CPU hogs).
 */
final class RqStatsReads {
    /**
     * The rq lines a visit reads that its owner writes: struct rq's nr_running line, the root cfs_rq's
     * h_nr_running line and its sched_avg (load, runnable, util), three separate 64-byte lines in the kernels the
     * seeds patched (struct rq and struct cfs_rq in kernel/sched/sched.h; upstream's later "sched: Reorder some
     * fields in struct rq" gathers the ones update_sg_lb_stats() reads on one line).
     */
    static final int LINES_PER_RQ = 3;

    /** The task lines can_migrate_task() reads: se.group_node with exec_start, and cpus_mask (struct task_struct). */
    static final int LINES_PER_TASK_EXAMINED = 2;
    /** The lines dequeue_entity() writes on the source per level: the cfs_rq's and the sched_entity's. */
    static final int LINES_PER_LEVEL_MOVED = 2;

    private final SimClock clock;
    private final Topology topo;
    private final Cpu[] cpus;
    private final long perCpuNs;
    private final long[] transferNs;
    /** lastRead[balancer][cpu]: when the balancer last read that CPU's rq lines (allocated on its first balance). */
    private final long[][] lastRead;

    RqStatsReads(SimClock clock, Topology topo, Cpu[] cpus, long perCpuNs, long[] transferNs) {
        this.clock = clock;
        this.topo = topo;
        this.cpus = cpus;
        this.perCpuNs = perCpuNs;
        this.transferNs = transferNs.clone();
        this.lastRead = new long[cpus.length][];
    }

    /** The CPU time {@code cpu} spends reading the rq statistics of {@code span}, and the reads noted. */
    long updateSdLbStats(int cpu, int[] span) {
        long[] seen = lastRead[cpu];
        if (seen == null) {
            // The run starts on a machine that idled: every line is where it was read last, so only what was
            // written since the start misses.
            seen = new long[cpus.length];
            lastRead[cpu] = seen;
        }
        long now = clock.now;
        long cost = perCpuNs * span.length;
        for (int c : span) {
            if (c != cpu && writtenSince(cpus[c], seen[c])) {
                cost += LINES_PER_RQ * transferNs[BalanceSerialize.distance(topo, cpu, c)];
            }
            seen[c] = now;
        }
        return cost;
    }

    /**
     * What detach_tasks() and attach_tasks() cost the balancing CPU beyond their bookkeeping: the busiest rq's lock
     * (a line its owner writes at every schedule()), for each task examined the task's lines can_migrate_task()
     * reads (its se list node and exec_start, its cpus_mask: {@value #LINES_PER_TASK_EXAMINED} lines the source
     * CPU wrote when it last ran or queued it), and for each task moved the dequeue on the source: at each level of
     * its cgroup hierarchy the source's cfs_rq and the entity ({@value #LINES_PER_LEVEL_MOVED} lines), plus the
     * removed-load lock migrate_task_rq_fair() takes — each a transfer by distance from the source CPU.
     */
    long detachTasks(int src, int dst, int examined, int moved, int depth) {
        long lines = 1 + (long) examined * LINES_PER_TASK_EXAMINED
                + (long) moved * (LINES_PER_LEVEL_MOVED * (depth + 1L) + 1);
        return lines * transferNs[BalanceSerialize.distance(topo, src, dst)];
    }

    /** Whether the rq's statistics lines were written after {@code t}. */
    private static boolean writtenSince(Cpu rq, long t) {
        return rq.busy || rq.idleSince > t;
    }
}
