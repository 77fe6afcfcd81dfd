package dev.schedsim.engine.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The named machines a request's {@code topology.preset} names (docs/api.md, "The request"). */
public final class TopologyPresets {

    /** A preset: its name, what it is, why it is here, and its shape. */
    public record Preset(String name, String machine, String why, TopologySpec spec) {
    }

    private static final Map<String, Preset> PRESETS = new LinkedHashMap<>();

    static {
        // A 2-vCPU KVM guest, measured (docs/latency-validation.md). A sleep in read() of a pipe and its wakeup
        // cost a request-response pair 2.1 µs beyond its work (75.1 µs a transaction of 70 µs of work, 1.1 % of it
        // interrupts): the 2 µs context switch and nothing measurable besides (wakeKernelNs 0). A timed sleep costs
        // more: a thread that computes 100 µs and sleeps 900 µs is charged 106.6 µs a cycle when its wakeup preempts
        // a busy thread (the median of four cases), 1.1 µs of it interrupts (MachineNoise) and 2 µs the switch, so
        // 3.5 µs the timer (hrtimerSleepNs: arming it, exits to the host; the expiry's interrupt was the busy
        // thread's, hrtimerIrqNs, not measured on this host: 0). Out of idle a wakeup
        // reaches its program later and costs it about as much more CPU, the longer the idle: 1.5, 3.9, 8.0 and
        // 15.2 µs more CPU (0.7, 2.7, 7.6 and 14.7 µs later) after 0.2, 0.9, 3 and 10 ms; the two idle states are
        // the means of the points on either side of 2 ms: 2 µs and 11.5 µs.
        add("validation-2c", "1 socket, 2 cores, no SMT (a 2-vCPU KVM guest)",
                "the real-kernel validation machine (shared/validation)",
                new TopologySpec(1, 1, 1, 2, 1, null, HardwareModel.defaults(1).withWakeKernelNs(0)
                        .withHrtimerSleepNs(3_500).withIdleExit(2_000, 11_500, 2_000_000).withIdleExitCpuShare(1.0)
                        .withNoise(MachineNoise.validation2c())));
        add("desktop-8c-smt2", "1 socket, 8 cores, SMT2 (16 CPUs)", "a common laptop/desktop",
                TopologySpec.uniform(1, 1, 1, 8, 2));
        add("power10-8c-smt8", "1 socket, 8 cores, SMT8 (64 CPUs)", "seed 000 (interleaved bandwidth timers)",
                TopologySpec.uniform(1, 1, 1, 8, 8));
        add("xeon-2s-4c-smt2", "2 sockets, 4 cores each, SMT2 (16 CPUs)", "seed 001 nested-cgroup test",
                TopologySpec.uniform(2, 1, 1, 4, 2));
        // 46 cores do not divide evenly over 8 nodes: six nodes of 6 cores and two of 5 (4 nodes a socket).
        add("power-46c-smt8-8n", "46 cores SMT8 over 8 NUMA nodes (368 CPUs)", "seed 002 (SIS_CACHE on Power)",
                new TopologySpec(2, 4, 1, 6, 8, List.of(6, 6, 6, 5, 6, 6, 6, 5), null));
        add("thunderx2-2n-28c-smt4", "2 nodes × 28 cores × SMT4 (224 CPUs)", "seed 003 (newidle cost)",
                TopologySpec.uniform(2, 1, 1, 28, 4));
        // The default hardware model: its 1 µs shallow exit is intel_idle's C1 on Sapphire Rapids (spr_cstates;
        // C1E 2 µs, C6 290 µs), and a wakeup to an idle CPU sends no IPI there (MWAIT polls: WakeIpi).
        add("spr-2s-60c-smt2", "2 sockets × 60 cores × SMT2 (240 CPUs)", "seed 002 OLTP",
                TopologySpec.uniform(2, 1, 1, 60, 2));
        add("epyc-2s-64c-smt2-8ccx", "2 sockets × 64 cores SMT2, an LLC per 8 cores (256 CPUs)", "many LLCs",
                TopologySpec.uniform(2, 1, 8, 8, 2));
        add("gnr-2s-snc3-smt2", "2 sockets × 3 sub-NUMA nodes × 40 cores × SMT2 (480 CPUs)",
                "seed 004 (sched_balance_running contention)", TopologySpec.uniform(2, 3, 1, 40, 2));
    }

    private TopologyPresets() {
    }

    private static void add(String name, String machine, String why, TopologySpec spec) {
        PRESETS.put(name, new Preset(name, machine, why, spec));
    }

    public static List<Preset> all() {
        return List.copyOf(PRESETS.values());
    }

    /** The preset of that name, or null. */
    public static Preset byName(String name) {
        return PRESETS.get(name);
    }
}
