package dev.schedsim.engine.select;

import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.topology.Topology;

/**
 * Fork/exec balancing (select_task_rq_fair() with SD_BALANCE_FORK, simplified): the idlest node, then LLC, then
 * core, then CPU, counting the tasks already placed — {@code find_idlest_group()} / {@code find_idlest_group_cpu()}
 * walk the domains top-down the same way. Each level's best CPU is kept, so a placement only refreshes the path
 * from the chosen CPU up.
 */
public final class ForkBalance {
    private final Topology topo;
    private final int ncpu;
    private final int[] nodeSizes;
    private final long[] placed;
    private final long[] corePlaced;
    private final long[] llcPlaced;
    private final long[] nodePlaced;
    private final int[][] coresOfLlc;
    private final int[][] llcsOfNode;
    private final int[] bestOfCore;
    private final int[] bestOfLlc;
    private final int[] bestOfNode;
    private int bestNode;

    public ForkBalance(Topology topo) {
        this.topo = topo;
        this.ncpu = topo.cpuCount();
        this.nodeSizes = new int[topo.spec().sockets() * topo.spec().numaNodesPerSocket()];
        for (int c = 0; c < ncpu; c++) {
            nodeSizes[topo.nodeOf(c)]++;
        }
        int cores = topo.coreCount();
        placed = new long[ncpu];
        corePlaced = new long[cores];
        llcPlaced = new long[topo.llcCount()];
        nodePlaced = new long[nodeSizes.length];
        coresOfLlc = new int[topo.llcCount()][];
        llcsOfNode = new int[nodeSizes.length][];
        groupLevels(cores);
        bestOfCore = new int[cores];
        bestOfLlc = new int[topo.llcCount()];
        bestOfNode = new int[nodeSizes.length];
        for (int core = 0; core < cores; core++) {
            refreshCore(core);
        }
        for (int l = 0; l < bestOfLlc.length; l++) {
            refreshLlc(l);
        }
        for (int nd = 0; nd < bestOfNode.length; nd++) {
            refreshNode(nd);
        }
        refreshMachine();
    }

    /** The cores of each LLC and the LLCs of each node, ascending. */
    private void groupLevels(int cores) {
        java.util.List<java.util.List<Integer>> byLlc = new java.util.ArrayList<>();
        for (int l = 0; l < topo.llcCount(); l++) {
            byLlc.add(new java.util.ArrayList<>());
        }
        for (int core = 0; core < cores; core++) {
            byLlc.get(topo.llcOf(topo.siblingsOfCore(core)[0])).add(core);
        }
        java.util.List<java.util.List<Integer>> byNode = new java.util.ArrayList<>();
        for (int nd = 0; nd < nodeSizes.length; nd++) {
            byNode.add(new java.util.ArrayList<>());
        }
        for (int l = 0; l < topo.llcCount(); l++) {
            coresOfLlc[l] = byLlc.get(l).stream().mapToInt(Integer::intValue).toArray();
            byNode.get(topo.nodeOf(topo.siblingsOfCore(coresOfLlc[l][0])[0])).add(l);
        }
        for (int nd = 0; nd < nodeSizes.length; nd++) {
            llcsOfNode[nd] = byNode.get(nd).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** The CPU a new task starts on (wake_up_new_task()'s select_task_rq()); counts it there. */
    public int selectForkCpu(Task p) {
        int best = -1;
        if (p.allowed == null) {
            best = bestOfNode[bestNode];
        } else {
            for (int c = 0; c < ncpu; c++) {
                if (p.allowedOn(c) && (best < 0 || before(c, best))) {
                    best = c;
                }
            }
        }
        placeForked(best);
        return best;
    }

    /** The total order of fork balancing: better() on the counts, then the lower CPU number. */
    private boolean before(int a, int b) {
        return better(a, b) || (!better(b, a) && a < b);
    }

    /** Counts a forked task on {@code cpu} and refreshes the best CPU of its core, LLC, node and the machine. */
    private void placeForked(int cpu) {
        placed[cpu]++;
        int core = topo.coreOf(cpu);
        int llc = topo.llcOf(cpu);
        int node = topo.nodeOf(cpu);
        corePlaced[core]++;
        llcPlaced[llc]++;
        nodePlaced[node]++;
        refreshCore(core);
        refreshLlc(llc);
        refreshNode(node);
        refreshMachine();
    }

    private void refreshCore(int core) {
        int best = -1;
        for (int c : topo.siblingsOfCore(core)) {
            if (best < 0 || before(c, best)) {
                best = c;
            }
        }
        bestOfCore[core] = best;
    }

    private void refreshLlc(int llc) {
        int best = -1;
        for (int core : coresOfLlc[llc]) {
            int c = bestOfCore[core];
            if (best < 0 || before(c, best)) {
                best = c;
            }
        }
        bestOfLlc[llc] = best;
    }

    private void refreshNode(int node) {
        int best = -1;
        for (int llc : llcsOfNode[node]) {
            int c = bestOfLlc[llc];
            if (best < 0 || before(c, best)) {
                best = c;
            }
        }
        bestOfNode[node] = best;
    }

    private void refreshMachine() {
        int best = -1;
        for (int node = 0; node < bestOfNode.length; node++) {
            int c = bestOfNode[node];
            if (best < 0 || before(c, best)) {
                best = c;
                bestNode = node;
            }
        }
    }

    /** a holds fewer tasks than b per capacity, comparing node, then LLC, then core, then CPU. */
    private boolean better(int a, int b) {
        // Compare per capacity: a node/LLC with more CPUs takes proportionally more.
        double na = (double) nodePlaced[topo.nodeOf(a)] / nodeSizes[topo.nodeOf(a)];
        double nb = (double) nodePlaced[topo.nodeOf(b)] / nodeSizes[topo.nodeOf(b)];
        if (na != nb) {
            return na < nb;
        }
        double la = (double) llcPlaced[topo.llcOf(a)] / topo.llcSpan(a).length;
        double lb = (double) llcPlaced[topo.llcOf(b)] / topo.llcSpan(b).length;
        if (la != lb) {
            return la < lb;
        }
        if (corePlaced[topo.coreOf(a)] != corePlaced[topo.coreOf(b)]) {
            return corePlaced[topo.coreOf(a)] < corePlaced[topo.coreOf(b)];
        }
        return placed[a] < placed[b];
    }
}
