package dev.schedsim.engine.balance;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.topology.Topology;

/**
 * SD_SERIALIZE: the periodic balance of a serializing (NUMA) level takes the global {@code sched_balance_running}
 * with {@code atomic_cmpxchg_acquire()} and drops it with {@code atomic_set_release()} (sched_balance_domains()).
 *
 * <p>(model) The flag is one cache line, and the line is a queue: every access needs it exclusive, one after the
 * other, each for the line's transfer from the CPU that had it ({@link dev.schedsim.engine.spec.HardwareModel#lineTransferNs()}
 * by distance). Ticks are aligned on every CPU (sched_skew_tick is 0 by default, tick_sched_timer() expires on the
 * same jiffy everywhere), so the busy CPUs whose softirq runs sched_balance_domains() arrive at the line together;
 * the k-th waits for the k − 1 transfers before its own, and spins meanwhile: that wait is the CPU time a
 * compare-and-swap costs, failed or not. While the line is queued the requests come from all over the machine
 * (the line's home agent does not serve them in CPU order), so each queued transfer costs the mean over all pairs
 * of CPUs; an uncontended access costs the distance from the last writer. Nothing here is fitted to seed 004.
 */
final class BalanceSerialize {
    private final SimClock clock;
    private final Topology topo;
    private final long[] transferNs;
    private final Cpu[] cpus;
    private final Execution execution;
    private final BalanceCounters counters;
    /** The mean transfer between two distinct CPUs of the machine: the cost of each queued access (-1: not yet). */
    private long queuedTransferNs = -1;
    private long lineFreeAt = Long.MIN_VALUE / 2;
    private int lastWriter = -1;
    /** The flag's value: a CPU holds sched_balance_running. */
    private boolean held;
    private int holder = -1;
    private long acquiredAt;
    /** When the holder issues its atomic_set_release() (NONE: not yet known, or no holder). */
    private long releaseAt = NONE;
    private static final long NONE = Long.MIN_VALUE;

    BalanceSerialize(SimClock clock, Topology topo, long[] transferNs, Cpu[] cpus, Execution execution,
                     BalanceCounters counters) {
        this.clock = clock;
        this.topo = topo;
        this.transferNs = transferNs.clone();
        this.cpus = cpus;
        this.execution = execution;
        this.counters = counters;
    }

    /** atomic_cmpxchg_acquire(&sched_balance_running, 0, 1): true when this CPU got it. */
    boolean tryAcquire(int cpu) {
        counters.serializeAttempts++;
        long now = clock.now;
        long done = access(cpu, now);
        long cost = done - now;
        counters.serializeNs += cost;
        execution.chargeOverhead(cpus[cpu], cost);
        if (held) {
            return false;
        }
        held = true;
        holder = cpu;
        acquiredAt = done;
        releaseAt = NONE;
        return true;
    }

    /**
     * atomic_set_release(&sched_balance_running, 0) after {@code holdNs} of balancing: a store, so the CPU does not
     * wait for the line (the store buffer drains it), but it needs the line once more, in turn with whoever asks for
     * it by then.
     */
    void release(long holdNs) {
        releaseAt = acquiredAt + holdNs;
    }

    /**
     * The time this CPU has the line exclusive, asking for it at {@code at}: first come, first served. The
     * holder's release, issued at a time the event loop has not reached yet, is served in its turn.
     */
    private long access(int cpu, long at) {
        if (held && releaseAt != NONE && releaseAt <= Math.max(at, lineFreeAt)) {
            lineFreeAt = transfer(holder, releaseAt);
            held = false;
            releaseAt = NONE;
        }
        return transfer(cpu, at);
    }

    private long transfer(int cpu, long at) {
        long done;
        if (lineFreeAt > at) {
            if (queuedTransferNs < 0) {
                // O(CPUs²) once, and only on a machine whose balancing ever queues for the line
                queuedTransferNs = meanTransferNs(topo, transferNs);
            }
            done = lineFreeAt + queuedTransferNs;
        } else {
            done = at + (lastWriter < 0 ? 0 : transferNs[distance(topo, lastWriter, cpu)]);
        }
        lineFreeAt = done;
        lastWriter = cpu;
        return done;
    }

    /** 0 same core, 1 same LLC, 2 same socket, 3 another socket (the index of lineTransferNs). */
    static int distance(Topology topo, int a, int b) {
        if (topo.coreOf(a) == topo.coreOf(b)) {
            return 0;
        }
        if (topo.llcOf(a) == topo.llcOf(b)) {
            return 1;
        }
        return topo.socketOf(a) == topo.socketOf(b) ? 2 : 3;
    }

    /** The mean of lineTransferNs over ordered pairs of distinct CPUs. */
    static long meanTransferNs(Topology topo, long[] transferNs) {
        int n = topo.cpuCount();
        if (n < 2) {
            return transferNs[0];
        }
        // Count pairs per distance from one CPU's view of each other CPU, summed over CPUs (O(n²) once a run).
        long sum = 0;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a != b) {
                    sum += transferNs[distance(topo, a, b)];
                }
            }
        }
        return Math.round(sum / ((double) n * (n - 1)));
    }
}
