package dev.schedsim.engine.balance;

import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.topology.Topology;

/**
 * SD_SERIALIZE: the periodic balance of a serializing (NUMA) level takes {@code sched_balance_running} with
 * {@code atomic_cmpxchg_acquire()}. (model) The cache line bounces between the CPUs that touched it recently: the
 * CAS costs {@code casBaseNs} plus {@code casPerContenderNs} for every other CPU that touched the line within the
 * last microsecond (doubled when it came from the other socket), and fails while another CPU holds it.
 */
final class BalanceSerialize {
    /** The window in which other CPUs' accesses to the serialization flag's cache line contend. */
    static final long CAS_WINDOW_NS = 1_000;

    private final SimClock clock;
    private final Topology topo;
    private final HardwareModel hw;
    private final Cpu[] cpus;
    private final Execution execution;
    private final BalanceCounters counters;
    // Recent touches of the flag's cache line (a ring of times and sockets).
    private final long[] casTime = new long[64];
    private final int[] casSocket = new int[64];
    private int casHead;

    BalanceSerialize(SimClock clock, Topology topo, HardwareModel hw, Cpu[] cpus, Execution execution,
                     BalanceCounters counters) {
        this.clock = clock;
        this.topo = topo;
        this.hw = hw;
        this.cpus = cpus;
        this.execution = execution;
        this.counters = counters;
        java.util.Arrays.fill(casTime, Long.MIN_VALUE / 2);
    }

    /** atomic_cmpxchg_acquire(&sched_balance_running, 0, 1): true when this CPU got it. */
    boolean tryAcquire(int cpu) {
        counters.serializeAttempts++;
        int socket = topo.socketOf(cpu);
        long now = clock.now;
        long cost = hw.casBaseNs();
        boolean held = false;
        for (int i = 0; i < casTime.length; i++) {
            if (now - casTime[i] < CAS_WINDOW_NS) {
                cost += hw.casPerContenderNs() * (casSocket[i] == socket ? 1 : 2);
                held = true;
            }
        }
        casTime[casHead] = now;
        casSocket[casHead] = socket;
        casHead = (casHead + 1) % casTime.length;
        counters.serializeNs += cost;
        execution.chargeOverhead(cpus[cpu], cost);
        return !held;
    }
}
