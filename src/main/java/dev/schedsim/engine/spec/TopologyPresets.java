package dev.schedsim.engine.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The named machines of engine-model.md §7. */
public final class TopologyPresets {

    /** A preset: its name, what it is, why it is here, and its shape. */
    public record Preset(String name, String machine, String why, TopologySpec spec) {
    }

    private static final Map<String, Preset> PRESETS = new LinkedHashMap<>();

    static {
        // A 2-vCPU KVM guest: each sleep and wakeup costs more kernel time than on bare metal (timer and IPI
        // exits). 17 µs (on top of update_curr's own cost) was chosen against the demand-eq-quota measurement, the
        // case most sensitive to it: its nr_throttled moves from about 4 to 9 between 15 and 20 µs
        // (src/test/resources/validation); the other real-kernel cases check it.
        add("validation-2c", "1 socket, 2 cores, no SMT (a 2-vCPU KVM guest)",
                "the real-kernel validation machine (shared/validation)",
                new TopologySpec(1, 1, 1, 2, 1, null, HardwareModel.defaults(1).withWakeKernelNs(17_000)));
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
