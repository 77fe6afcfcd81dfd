package dev.schedsim.engine.sched;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code struct task_group}: a cgroup with its per-CPU run queues and entities, its shares from
 * cpu.weight (its bandwidth pool, when it has a quota, is {@code BandwidthPool}'s).
 */
public final class TaskGroup {
    public final int index;
    public final String path;
    public final TaskGroup parent;
    public final List<TaskGroup> children = new ArrayList<>();
    public final int depth;
    /** tg->shares: cpu.weight × 1024 / 100 (sched_weight_from_cgroup(): weight 100 is 1024). */
    public final long shares;
    public final CfsRq[] rq;
    /** The group's entity per CPU (null entries for the root). */
    public final Entity[] se;
    /** Σ over CPUs of this group's run queue load (the instantaneous stand-in for tg->load_avg). */
    public long totalLoad;
    /** cpu.stat usage_usec in ns: CPU time of every task in this group and its descendants. */
    public long usageNs;

    public TaskGroup(int index, String path, TaskGroup parent, int weight, int cpus) {
        this.index = index;
        this.path = path;
        this.parent = parent;
        this.depth = parent == null ? 0 : parent.depth + 1;
        this.shares = weight * 1024L / 100;
        this.rq = new CfsRq[cpus];
        this.se = new Entity[cpus];
        for (int c = 0; c < cpus; c++) {
            CfsRq q = new CfsRq(this, c, parent == null ? null : parent.rq[c]);
            rq[c] = q;
            if (parent != null) {
                Entity e = new Entity(null, q, shares);
                e.cfsRq = parent.rq[c];
                e.parent = parent.se[c];
                q.se = e;
                se[c] = e;
            }
        }
        if (parent != null) {
            parent.children.add(this);
        }
    }

    public boolean isRoot() {
        return parent == null;
    }
}
