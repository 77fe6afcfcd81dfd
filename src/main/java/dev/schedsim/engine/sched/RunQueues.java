package dev.schedsim.engine.sched;

import dev.schedsim.engine.topology.RootDomain;
import dev.schedsim.engine.topology.SchedDomainShared;

/**
 * The bookkeeping of each CPU's {@code struct rq} that others read: rq->curr, rq->nr_running (with
 * rd->overloaded and the LLC's idle cpumasks kept in step) and the rq->cfs_tasks list that load balancing walks.
 * The one writer of those fields.
 */
public final class RunQueues {
    private final Cpu[] cpus;
    private final Task[] tasks;
    private final SchedDomainShared shared;
    private final RootDomain rd;
    /** Each CPU's nr_running, mirrored flat for the balance loops. */
    public final int[] nrRunning;

    public RunQueues(Cpu[] cpus, Task[] tasks, SchedDomainShared shared, RootDomain rd) {
        this.cpus = cpus;
        this.tasks = tasks;
        this.shared = shared;
        this.rd = rd;
        this.nrRunning = new int[cpus.length];
    }

    public Cpu cpu(int id) {
        return cpus[id];
    }

    public Cpu[] cpus() {
        return cpus;
    }

    /** add_nr_running() / sub_nr_running(), keeping rd->overloaded (CPUs with more than one task). */
    public void addNrRunning(Cpu cpu, int delta) {
        int before = cpu.nrRunning;
        cpu.nrRunning += delta;
        if (before == 0 || cpu.nrRunning == 0) {
            shared.syncIdle(cpu.id, cpu.idle());
        }
        nrRunning[cpu.id] = cpu.nrRunning;
        rd.nrRunningChanged(before, cpu.nrRunning);
    }

    /** rq->curr = t, keeping the wakeup scans' idle cpumasks in step (a CPU with queued tasks stays non-idle). */
    public void setCurr(Cpu cpu, Task t) {
        cpu.curr = t;
        if (cpu.nrRunning == 0) {
            shared.syncIdle(cpu.id, cpu.idle());
        }
    }

    /** list_add(&p->se.group_node, &rq->cfs_tasks) at enqueue. */
    public void lruAddHead(Cpu cpu, Task p) {
        p.lruPrev = -1;
        p.lruNext = cpu.lruHead;
        if (cpu.lruHead >= 0) {
            tasks[cpu.lruHead].lruPrev = p.id;
        } else {
            cpu.lruTail = p.id;
        }
        cpu.lruHead = p.id;
        p.onLru = true;
    }

    /** list_del_init(&p->se.group_node) at dequeue. */
    public void lruRemove(Cpu cpu, Task p) {
        if (!p.onLru) {
            return;
        }
        if (p.lruPrev >= 0) {
            tasks[p.lruPrev].lruNext = p.lruNext;
        } else {
            cpu.lruHead = p.lruNext;
        }
        if (p.lruNext >= 0) {
            tasks[p.lruNext].lruPrev = p.lruPrev;
        } else {
            cpu.lruTail = p.lruPrev;
        }
        p.lruPrev = -1;
        p.lruNext = -1;
        p.onLru = false;
    }

    /** list_move(&p->se.group_node, &rq->cfs_tasks) in set_next_task_fair(): to the head. */
    public void lruMoveToHead(Cpu cpu, Task p) {
        if (cpu.lruHead == p.id) {
            return;
        }
        lruRemove(cpu, p);
        lruAddHead(cpu, p);
    }

    /** rq->cfs_tasks, least recently run first (detach_tasks() walks it from the tail). */
    public Task lruTail(Cpu cpu) {
        return cpu.lruTail < 0 ? null : tasks[cpu.lruTail];
    }

    public Task lruPrev(Task p) {
        return p.lruPrev < 0 ? null : tasks[p.lruPrev];
    }
}
