package dev.schedsim.engine.topology;

import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.SchedDomainView;
import dev.schedsim.engine.spec.TopologySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A built machine: every logical CPU's core, LLC, NUMA node and socket, its SMT siblings and its scheduling
 * domains.
 *
 * <p><b>Numbering</b> follows Linux on x86: the first hardware thread of every core (cores in socket, node,
 * LLC order) gets CPUs 0..cores-1, the second threads follow, and so on; so CPU = thread·cores + core.
 *
 * <p><b>Domains</b> follow {@code default_topology[]} and {@code build_sched_domains()}: SMT (siblings, when
 * threads &gt; 1), MC (the LLC), PKG (the socket), then one NUMA level per distinct node distance (12 inside a
 * socket with several nodes, 21 across sockets, as SLIT tables of such machines report). A level whose span
 * equals its child's is dropped (sd_degenerate / sd_parent_degenerate). NUMA levels carry SD_SERIALIZE.
 * <i>Limitations:</i> no CLS (cluster) level, no asymmetric capacity.
 */
public final class Topology {
    private final TopologySpec spec;
    private final int cpus;
    private final int cores;
    private final int[] coreOf;
    private final int[] threadOf;
    private final int[] llcOf;
    private final int[] nodeOf;
    private final int[] socketOf;
    private final int[][] siblings;
    private final int[][] llcCpus;
    private final List<DomainLevel> levels;

    public Topology(TopologySpec spec) {
        this.spec = spec;
        this.cores = spec.coreCount();
        int t = spec.threadsPerCore();
        this.cpus = cores * t;
        int[] coreLlc = new int[cores];
        int core = 0;
        for (int llc = 0; llc < spec.llcCount(); llc++) {
            for (int c = 0; c < spec.coresOfLlc(llc); c++) {
                coreLlc[core++] = llc;
            }
        }
        coreOf = new int[cpus];
        threadOf = new int[cpus];
        llcOf = new int[cpus];
        nodeOf = new int[cpus];
        socketOf = new int[cpus];
        siblings = new int[cores][t];
        for (int cpu = 0; cpu < cpus; cpu++) {
            int c = cpu % cores;
            int th = cpu / cores;
            coreOf[cpu] = c;
            threadOf[cpu] = th;
            llcOf[cpu] = coreLlc[c];
            nodeOf[cpu] = coreLlc[c] / spec.llcsPerNumaNode();
            socketOf[cpu] = nodeOf[cpu] / spec.numaNodesPerSocket();
            siblings[c][th] = cpu;
        }
        llcCpus = group(llcOf, spec.llcCount());
        levels = buildLevels();
    }

    private int[][] group(int[] key, int n) {
        List<List<Integer>> g = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            g.add(new ArrayList<>());
        }
        for (int cpu = 0; cpu < cpus; cpu++) {
            g.get(key[cpu]).add(cpu);
        }
        int[][] out = new int[n][];
        for (int i = 0; i < n; i++) {
            out[i] = g.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }

    private List<DomainLevel> buildLevels() {
        List<DomainLevel> out = new ArrayList<>();
        int nodes = spec.sockets() * spec.numaNodesPerSocket();
        int[] all = new int[cpus];
        int[] smtKey = coreOf;
        int[] mcKey = llcOf;
        int[] pkgKey = socketOf;
        // SMT: SD_SHARE_CPUCAPACITY | SD_SHARE_LLC, imbalance_pct 110, cache_nice_tries 0.
        addLevel(out, "SMT", smtKey, cores, 110, 0, false, true, true, true);
        // MC: the LLC, imbalance_pct 117, cache_nice_tries 1, gets sd->shared.
        addLevel(out, "MC", mcKey, spec.llcCount(), 117, 1, false, false, true, true);
        // PKG (DIE before 6.8): the socket when the socket has several nodes is covered by NUMA levels in
        // the kernel (the PKG span is the node on SNC machines); model PKG as the NUMA node.
        addLevel(out, "PKG", nodeOf, nodes, 117, 1, false, false, false, true);
        if (nodes > 1) {
            if (spec.numaNodesPerSocket() > 1) {
                // Nodes of one socket (distance 12).
                addLevel(out, "NUMA1", pkgKey, spec.sockets(), 117, 2, true, false, false, true);
            }
            if (spec.sockets() > 1) {
                addLevel(out, spec.numaNodesPerSocket() > 1 ? "NUMA2" : "NUMA1", all, 1, 117, 2, true, false,
                        false, true);
            }
        }
        return List.copyOf(out);
    }

    private void addLevel(List<DomainLevel> out, String name, int[] key, int n, int imbalancePct,
                          int cacheNiceTries, boolean serialize, boolean shareCapacity, boolean shareLlc,
                          boolean wakeAffine) {
        int[][] spans = group(key, n);
        // A domain of a single CPU is degenerate.
        if (spans[0].length <= 1 && spans.length == cpus) {
            return;
        }
        // Same span as the child level: dropped (sd_parent_degenerate).
        if (!out.isEmpty()) {
            DomainLevel child = out.get(out.size() - 1);
            if (child.spans().length == spans.length) {
                return;
            }
        }
        out.add(new DomainLevel(name, spans, key.clone(), imbalancePct, 16, cacheNiceTries, serialize,
                shareCapacity, shareLlc, wakeAffine));
    }

    public TopologySpec spec() {
        return spec;
    }

    public HardwareModel hardware() {
        return spec.hardware();
    }

    public int cpuCount() {
        return cpus;
    }

    public int coreCount() {
        return cores;
    }

    public int threadsPerCore() {
        return spec.threadsPerCore();
    }

    public int coreOf(int cpu) {
        return coreOf[cpu];
    }

    public int threadOf(int cpu) {
        return threadOf[cpu];
    }

    public int llcOf(int cpu) {
        return llcOf[cpu];
    }

    public int nodeOf(int cpu) {
        return nodeOf[cpu];
    }

    public int socketOf(int cpu) {
        return socketOf[cpu];
    }

    /** The hardware threads of a core, ascending. */
    public int[] siblingsOfCore(int core) {
        return siblings[core];
    }

    /** The CPUs sharing a last-level cache with this one, ascending. */
    public int[] llcSpan(int cpu) {
        return llcCpus[llcOf[cpu]];
    }

    public int llcCount() {
        return llcCpus.length;
    }

    public boolean sharesLlc(int a, int b) {
        return llcOf[a] == llcOf[b];
    }

    /** Distance class for the cache model: 0 same core, 1 same LLC, 2 same node, 3 other node. */
    public int distance(int a, int b) {
        if (coreOf[a] == coreOf[b]) {
            return 0;
        }
        if (llcOf[a] == llcOf[b]) {
            return 1;
        }
        return nodeOf[a] == nodeOf[b] ? 2 : 3;
    }

    /** Scheduling-domain levels, lowest first. */
    public List<DomainLevel> levels() {
        return levels;
    }

    /** A summary of the domain levels for the API. */
    public List<SchedDomainView> levelViews() {
        List<SchedDomainView> v = new ArrayList<>();
        for (DomainLevel l : levels) {
            List<String> flags = new ArrayList<>();
            if (l.shareCapacity()) {
                flags.add("SD_SHARE_CPUCAPACITY");
            }
            if (l.shareLlc()) {
                flags.add("SD_SHARE_LLC");
            }
            if (l.serialize()) {
                flags.add("SD_SERIALIZE");
                flags.add("SD_NUMA");
            }
            if (l.wakeAffine()) {
                flags.add("SD_WAKE_AFFINE");
            }
            flags.add("SD_BALANCE_NEWIDLE");
            v.add(new SchedDomainView(l.name(), l.spans().length, l.spans()[0].length, l.imbalancePct(),
                    l.busyFactor(), l.cacheNiceTries(), l.serialize(), flags));
        }
        return v;
    }

    @Override
    public String toString() {
        return "Topology[" + cpus + " CPUs, levels=" + Arrays.toString(levels.stream().map(DomainLevel::name)
                .toArray()) + "]";
    }
}
