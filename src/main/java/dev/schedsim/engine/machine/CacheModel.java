package dev.schedsim.engine.machine;

import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
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
    private final long[] lineTransferNs;

    public CacheModel(Topology topo, HardwareModel hw, Execution execution) {
        this.topo = topo;
        this.execution = execution;
        this.refillNsPerKb = hw.cacheRefillNsPerKb();
        this.lineTransferNs = hw.lineTransferNs();
    }

    /**
     * The time the woken task {@code p} stalls on {@code cpu} reading the message its waker wrote on another CPU:
     * each of its lines comes from the waker's CPU's cache (a transfer by distance, HardwareModel.lineTransferNs;
     * docs/model.md, "Seed 002's client/server rows"); nothing when they share the CPU. The request's or the
     * response's lines — the skb and the socket's fields that tcp_rcv_established() wrote in the sender's softirq
     * — are read by tcp_recvmsg() before the receiver does its own work.
     */
    public long messageTransfer(Cpu cpu, Task p) {
        int from = p.wakeDataCpu;
        int lines = p.workload.messageLines;
        if (from < 0 || lines == 0 || from == cpu.id) {
            return 0;
        }
        return lines * lineTransferNs[topo.distance(from, cpu.id)];
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
