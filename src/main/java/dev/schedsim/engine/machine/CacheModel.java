package dev.schedsim.engine.machine;

import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.core.Task;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.topology.Topology;

/**
 * (model) Cache refill: a task that starts on a CPU pays for its footprint if it moved (more the further:
 * the hardware model's cost per KiB by distance), or for the part of it other tasks evicted since it last ran
 * there. The task's work stalls for that long.
 */
public final class CacheModel {
    private final Topology topo;
    private final Execution execution;
    private final long[] refillNsPerKb;

    public CacheModel(Topology topo, HardwareModel hw, Execution execution) {
        this.topo = topo;
        this.execution = execution;
        this.refillNsPerKb = hw.cacheRefillNsPerKb();
    }

    /** The task leaves the CPU: its data stays in this CPU's caches until others evict it. */
    public void leaveCache(Cpu cpu, Task p) {
        p.cacheCpu = cpu.id;
        p.cacheMark = cpu.kbTouched;
    }

    /** The refill the task pays as it starts on {@code cpu}. */
    public void refillCache(Cpu cpu, Task p) {
        int fp = p.workload.footprintKb;
        long[] perKb = refillNsPerKb;
        long cost;
        if (p.cacheCpu < 0) {
            cost = fp * perKb[1];
        } else if (p.cacheCpu == cpu.id) {
            long evicted = Math.min(fp, cpu.kbTouched - p.cacheMark);
            cost = evicted * perKb[1];
        } else {
            int d = topo.distance(p.cacheCpu, cpu.id);
            cost = fp * perKb[d];
        }
        cpu.kbTouched += fp;
        if (cost > 0) {
            execution.stall(cpu, cost);
        }
    }
}
