package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.topology.Topology;
import dev.schedsim.engine.spec.SchedDomainView;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.TopologySpec;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The machine: Linux x86 CPU numbering, SMT siblings, LLC spans and the scheduling-domain levels built like
 * {@code build_sched_domains()} / {@code sd_init()} (kernel/sched/topology.c), and the presets of
 * {@link TopologyPresets}.
 */
class TopologyTests {

    static Topology topo(String preset) {
        return new Topology(TopologyPresets.byName(preset).spec());
    }

    /** The presets' CPU counts. */
    static final Map<String, Integer> CPUS_OF_ENGINE_MODEL_TABLE = new LinkedHashMap<>();

    static {
        CPUS_OF_ENGINE_MODEL_TABLE.put("validation-2c", 2);
        CPUS_OF_ENGINE_MODEL_TABLE.put("desktop-8c-smt2", 16);
        CPUS_OF_ENGINE_MODEL_TABLE.put("power10-8c-smt8", 64);
        CPUS_OF_ENGINE_MODEL_TABLE.put("xeon-2s-4c-smt2", 16);
        CPUS_OF_ENGINE_MODEL_TABLE.put("power-46c-smt8-8n", 368);
        CPUS_OF_ENGINE_MODEL_TABLE.put("thunderx2-2n-28c-smt4", 224);
        CPUS_OF_ENGINE_MODEL_TABLE.put("spr-2s-60c-smt2", 240);
        CPUS_OF_ENGINE_MODEL_TABLE.put("epyc-2s-64c-smt2-8ccx", 256);
        CPUS_OF_ENGINE_MODEL_TABLE.put("gnr-2s-snc3-smt2", 480);
    }

    /**
     * Expected levels per preset, lowest first, as "NAME:span weight". Derived from default_topology[]:
     * SMT = one core's threads; MC = one LLC; PKG = the socket (only when it holds several LLCs, else it has
     * the LLC's span and is degenerate); NUMA levels from node distances — on SNC machines the nodes of one
     * socket (distance 12) and then the whole machine (21), PKG being the node there. Degenerate levels
     * (one CPU, or the child's span) are removed (sd_degenerate / sd_parent_degenerate).
     */
    static final Map<String, List<String>> LEVELS = new LinkedHashMap<>();

    static {
        LEVELS.put("validation-2c", List.of("MC:2")); // no SMT: SMT spans one CPU; PKG = MC
        LEVELS.put("desktop-8c-smt2", List.of("SMT:2", "MC:16")); // PKG = MC
        LEVELS.put("power10-8c-smt8", List.of("SMT:8", "MC:64"));
        LEVELS.put("xeon-2s-4c-smt2", List.of("SMT:2", "MC:8", "NUMA1:16")); // PKG = MC (one LLC a socket)
        LEVELS.put("thunderx2-2n-28c-smt4", List.of("SMT:4", "MC:112", "NUMA1:224"));
        LEVELS.put("spr-2s-60c-smt2", List.of("SMT:2", "MC:120", "NUMA1:240"));
        LEVELS.put("epyc-2s-64c-smt2-8ccx", List.of("SMT:2", "MC:16", "PKG:128", "NUMA1:256"));
        LEVELS.put("gnr-2s-snc3-smt2", List.of("SMT:2", "MC:80", "NUMA1:240", "NUMA2:480"));
        // 46 cores over 8 nodes (6,6,6,5 per socket): MC is a node's LLC (48 or 40 CPUs), checked separately.
    }

    static Stream<String> presetNames() {
        return TopologyPresets.all().stream().map(TopologyPresets.Preset::name);
    }

    @Test
    void everyPresetOfTheEngineModelTableExistsWithItsCpuCount() {
        for (Map.Entry<String, Integer> e : CPUS_OF_ENGINE_MODEL_TABLE.entrySet()) {
            TopologyPresets.Preset p = TopologyPresets.byName(e.getKey());
            assertNotNull(p, "preset " + e.getKey() + " missing");
            assertEquals(e.getValue(), p.spec().cpuCount(), e.getKey());
            assertEquals(e.getValue(), new Topology(p.spec()).cpuCount(), e.getKey());
        }
    }

    @Test
    void linuxNumberingPutsFirstThreadsOfAllCoresFirst() {
        Topology t = topo("desktop-8c-smt2");
        assertEquals(8, t.coreCount());
        for (int cpu = 0; cpu < 16; cpu++) {
            // cpu = thread·cores + core
            assertEquals(cpu % 8, t.coreOf(cpu), "core of cpu " + cpu);
            assertEquals(cpu / 8, t.threadOf(cpu), "thread of cpu " + cpu);
        }
        for (int core = 0; core < 8; core++) {
            assertArrayEquals(new int[] {core, core + 8}, t.siblingsOfCore(core), "siblings of core " + core);
        }
        assertArrayEquals(range(0, 16), t.llcSpan(0));
        assertEquals(0, t.distance(3, 11), "SMT siblings share the core");
        assertEquals(1, t.distance(3, 4), "other core, same LLC");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presetNames")
    void numberingSiblingsAndLlcsFollowTheSpec(String name) {
        TopologySpec s = TopologyPresets.byName(name).spec();
        Topology t = new Topology(s);
        int cores = s.coreCount();
        int threads = s.threadsPerCore();
        assertEquals(cores * threads, t.cpuCount());
        // Core → LLC in spec order (cores of LLC 0 first, …).
        int[] llcOfCore = new int[cores];
        int core = 0;
        for (int llc = 0; llc < s.llcCount(); llc++) {
            for (int i = 0; i < s.coresOfLlc(llc); i++) {
                llcOfCore[core++] = llc;
            }
        }
        for (int cpu = 0; cpu < t.cpuCount(); cpu++) {
            int c = cpu % cores;
            assertEquals(c, t.coreOf(cpu));
            assertEquals(cpu / cores, t.threadOf(cpu));
            assertEquals(llcOfCore[c], t.llcOf(cpu), "llc of cpu " + cpu);
            assertEquals(llcOfCore[c] / s.llcsPerNumaNode(), t.nodeOf(cpu));
            assertEquals(t.nodeOf(cpu) / s.numaNodesPerSocket(), t.socketOf(cpu));
            assertTrue(contains(t.llcSpan(cpu), cpu));
        }
        for (int c = 0; c < cores; c++) {
            int[] sib = t.siblingsOfCore(c);
            assertEquals(threads, sib.length);
            for (int th = 0; th < threads; th++) {
                assertEquals(th * cores + c, sib[th]);
            }
        }
        int llcCpus = 0;
        for (int llc = 0; llc < s.llcCount(); llc++) {
            llcCpus += s.coresOfLlc(llc) * threads;
        }
        assertEquals(t.cpuCount(), llcCpus);
        assertEquals(s.llcCount(), t.llcCount());
    }

    @Test
    void epycHasAnLlcPerEightCoresWithBothThreads() {
        Topology t = topo("epyc-2s-64c-smt2-8ccx");
        assertEquals(16, t.llcCount());
        int[] expected = new int[16];
        for (int i = 0; i < 8; i++) {
            expected[i] = 8 + i; // cores 8..15: the second CCX
            expected[8 + i] = 128 + 8 + i; // their second threads
        }
        assertArrayEquals(expected, t.llcSpan(9));
        assertArrayEquals(expected, t.llcSpan(128 + 15));
        assertEquals(2, t.distance(0, 8), "other LLC, same node");
        assertEquals(3, t.distance(0, 64), "other socket");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presetNames")
    void domainLevelsHaveTheKernelNamesAndSpans(String name) {
        Topology t = topo(name);
        List<DomainLevel> levels = t.levels();
        if (name.equals("power-46c-smt8-8n")) {
            assertEquals(List.of("SMT", "MC", "NUMA1", "NUMA2"), levels.stream().map(DomainLevel::name).toList());
            int[] nodeCores = {6, 6, 6, 5, 6, 6, 6, 5};
            for (int cpu = 0; cpu < t.cpuCount(); cpu++) {
                assertEquals(8, levels.get(0).weight(cpu));
                assertEquals(nodeCores[t.nodeOf(cpu)] * 8, levels.get(1).weight(cpu), "MC of cpu " + cpu);
                assertEquals(23 * 8, levels.get(2).weight(cpu), "NUMA1 (socket) of cpu " + cpu);
                assertEquals(368, levels.get(3).weight(cpu));
            }
            return;
        }
        List<String> expected = LEVELS.get(name);
        assertNotNull(expected, "no expectation for preset " + name + ": add it to LEVELS");
        assertEquals(expected, levels.stream().map(l -> l.name() + ":" + l.weight(0)).toList());
        for (DomainLevel l : levels) {
            int w = l.weight(0);
            assertEquals(t.cpuCount() / w, l.spans().length, name + " " + l.name() + ": equal spans");
            for (int cpu = 0; cpu < t.cpuCount(); cpu++) {
                assertEquals(w, l.weight(cpu));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presetNames")
    void domainSpansNestPartitionAndGrow(String name) {
        Topology t = topo(name);
        List<DomainLevel> levels = t.levels();
        assertFalse(levels.isEmpty());
        int n = t.cpuCount();
        for (int i = 0; i < levels.size(); i++) {
            DomainLevel l = levels.get(i);
            // The spans partition the machine and each CPU's span contains it.
            Set<Integer> seen = new HashSet<>();
            for (int[] span : l.spans()) {
                assertTrue(span.length > 1, "a single-CPU domain is degenerate");
                for (int j = 1; j < span.length; j++) {
                    assertTrue(span[j - 1] < span[j], "spans are ascending");
                }
                for (int c : span) {
                    assertTrue(seen.add(c), name + " " + l.name() + ": cpu " + c + " in two spans");
                }
            }
            assertEquals(n, seen.size());
            for (int cpu = 0; cpu < n; cpu++) {
                assertTrue(contains(l.spanOfCpu(cpu), cpu));
            }
            if (i > 0) {
                DomainLevel child = levels.get(i - 1);
                for (int cpu = 0; cpu < n; cpu++) {
                    int[] mine = l.spanOfCpu(cpu);
                    for (int c : child.spanOfCpu(cpu)) {
                        assertTrue(contains(mine, c), name + ": " + l.name() + " must contain " + child.name());
                    }
                    // sd_parent_degenerate(): a level with its child's span is removed.
                    assertTrue(mine.length > child.spanOfCpu(cpu).length,
                            name + ": " + l.name() + " has the same span as " + child.name());
                }
            }
        }
        // The top level spans the whole machine.
        assertEquals(n, levels.get(levels.size() - 1).weight(0));
        // SMT is the lowest level exactly when there is SMT, and spans one core.
        boolean smt = t.threadsPerCore() > 1;
        assertEquals(smt, levels.get(0).name().equals("SMT"));
        if (smt) {
            for (int cpu = 0; cpu < n; cpu++) {
                assertArrayEquals(t.siblingsOfCore(t.coreOf(cpu)), levels.get(0).spanOfCpu(cpu));
            }
        }
        // MC is the LLC.
        DomainLevel mc = levels.stream().filter(l -> l.name().equals("MC")).findFirst().orElseThrow();
        for (int cpu = 0; cpu < n; cpu++) {
            assertArrayEquals(t.llcSpan(cpu), mc.spanOfCpu(cpu));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presetNames")
    void sdInitDefaultsPerLevel(String name) {
        Topology t = topo(name);
        for (DomainLevel l : t.levels()) {
            boolean smt = l.name().equals("SMT");
            boolean numa = l.name().startsWith("NUMA");
            String where = name + " " + l.name();
            // sd_init(): imbalance_pct 117, 110 with SD_SHARE_CPUCAPACITY; busy_factor 16.
            assertEquals(smt ? 110 : 117, l.imbalancePct(), where);
            assertEquals(16, l.busyFactor(), where);
            // cache_nice_tries: 0 for SMT (stays at the default), 1 for LLC and others, 2 for NUMA.
            assertEquals(smt ? 0 : numa ? 2 : 1, l.cacheNiceTries(), where);
            // SD_SERIALIZE only on NUMA levels.
            assertEquals(numa, l.serialize(), where);
            assertEquals(smt, l.shareCapacity(), where);
            // SD_SHARE_LLC on SMT (cpu_smt_flags) and MC (cpu_core_flags) only.
            assertEquals(smt || l.name().equals("MC"), l.shareLlc(), where);
            for (int cpu = 0; cpu < t.cpuCount(); cpu++) {
                int w = l.spanOfCpu(cpu).length;
                assertEquals(w, l.weight(cpu));
                assertEquals(w, l.minIntervalMs(cpu), where + " min_interval = sd_weight ms");
                assertEquals(2 * w, l.maxIntervalMs(cpu), where + " max_interval = 2·sd_weight ms");
            }
        }
    }

    @Test
    void levelViewsFlagSerializeOnNumaOnly() {
        Topology t = topo("xeon-2s-4c-smt2");
        List<SchedDomainView> v = t.levelViews();
        assertEquals(List.of("SMT", "MC", "NUMA1"), v.stream().map(SchedDomainView::name).toList());
        assertEquals(List.of(8, 2, 1), v.stream().map(SchedDomainView::domains).toList());
        assertEquals(List.of(2, 8, 16), v.stream().map(SchedDomainView::cpusPerDomain).toList());
        assertTrue(v.get(2).serialize());
        assertTrue(v.get(2).flags().contains("SD_SERIALIZE"));
        assertFalse(v.get(1).flags().contains("SD_SERIALIZE"));
        assertTrue(v.get(0).flags().contains("SD_SHARE_CPUCAPACITY"));
    }

    private static boolean contains(int[] a, int x) {
        return Arrays.stream(a).anyMatch(v -> v == x);
    }

    private static int[] range(int from, int to) {
        int[] r = new int[to - from];
        for (int i = from; i < to; i++) {
            r[i - from] = i;
        }
        return r;
    }
}
