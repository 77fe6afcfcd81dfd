package dev.schedsim.engine;

import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.topology.Topology;

/**
 * Where a task runs: fork balancing ({@code find_idlest_cpu}, simplified) and the wakeup path of
 * {@code select_task_rq_fair()} (kernel-facts §2.1–2.2): wake_wide, wake_affine (WA_IDLE, WA_WEIGHT) and
 * {@code select_idle_sibling()} in the kernel's order — target, prev, recent_used_cpu, an idle SMT sibling
 * of prev, then {@code select_idle_cpu()} (an idle core when one exists, else an idle CPU) scanning the
 * LLC from target + 1.
 *
 * <p><b>Limitations</b> (this version): CPU load is the number of runnable tasks × NICE_0 instead of PELT
 * load; the select_idle_cpu scan is not depth-limited (SIS_UTIL / SIS_PROP come with the placement
 * issue); has_idle_cores is computed exactly instead of as a hint.
 */
final class Placement {
    private final Simulation sim;
    private final Topology topo;

    Placement(Simulation sim) {
        this.sim = sim;
        this.topo = sim.topo;
    }

    private boolean idle(int c) {
        return sim.cpus[c].idle();
    }

    /**
     * Fork/exec balancing: the idlest node, then LLC, then core, then CPU, counting the tasks already placed
     * ({@code find_idlest_group} / {@code find_idlest_group_cpu} walk the domains top-down the same way).
     */
    int forkCpu(Task p, int[] placed) {
        int n = sim.ncpu;
        int nodes = topo.spec().sockets() * topo.spec().numaNodesPerSocket();
        long[] node = new long[nodes];
        long[] llc = new long[topo.llcCount()];
        long[] core = new long[topo.coreCount()];
        for (int c = 0; c < n; c++) {
            node[topo.nodeOf(c)] += placed[c];
            llc[topo.llcOf(c)] += placed[c];
            core[topo.coreOf(c)] += placed[c];
        }
        int best = -1;
        for (int c = 0; c < n; c++) {
            if (!p.allowedOn(c)) {
                continue;
            }
            if (best < 0 || better(c, best, node, llc, core, placed)) {
                best = c;
            }
        }
        return best;
    }

    private boolean better(int a, int b, long[] node, long[] llc, long[] core, int[] placed) {
        // Compare per capacity: a node/LLC with more CPUs takes proportionally more.
        double na = (double) node[topo.nodeOf(a)] / nodeSize(a);
        double nb = (double) node[topo.nodeOf(b)] / nodeSize(b);
        if (na != nb) {
            return na < nb;
        }
        double la = (double) llc[topo.llcOf(a)] / topo.llcSpan(a).length;
        double lb = (double) llc[topo.llcOf(b)] / topo.llcSpan(b).length;
        if (la != lb) {
            return la < lb;
        }
        if (core[topo.coreOf(a)] != core[topo.coreOf(b)]) {
            return core[topo.coreOf(a)] < core[topo.coreOf(b)];
        }
        return placed[a] < placed[b];
    }

    private int nodeSize(int cpu) {
        int node = topo.nodeOf(cpu);
        int size = 0;
        for (int c = 0; c < sim.ncpu; c++) {
            if (topo.nodeOf(c) == node) {
                size++;
            }
        }
        return size;
    }

    /** select_task_rq_fair() for a wakeup (SD_BALANCE_WAKE is never set, so always the fast path). */
    int selectTaskRq(Task p, int thisCpu, Task waker, boolean sync) {
        int prev = p.cpu;
        if (!p.allowedOn(prev)) {
            prev = fallback(p);
        }
        boolean wantAffine = false;
        if (waker != null) {
            recordWakee(waker, p);
            wantAffine = !wakeWide(waker, p) && p.allowedOn(thisCpu);
        }
        int target = prev;
        if (wantAffine && thisCpu != prev) {
            for (DomainLevel l : topo.levels()) {
                if (!l.wakeAffine()) {
                    break;
                }
                if (contains(l.spanOfCpu(thisCpu), prev)) {
                    target = wakeAffine(p, thisCpu, prev, sync, l.imbalancePct());
                    break;
                }
            }
        }
        int cpu = selectIdleSibling(p, prev, target);
        return p.allowedOn(cpu) ? cpu : fallback(p);
    }

    private static boolean contains(int[] span, int cpu) {
        return java.util.Arrays.binarySearch(span, cpu) >= 0;
    }

    /** select_fallback_rq(): the first allowed CPU. */
    private int fallback(Task p) {
        for (int c = 0; c < sim.ncpu; c++) {
            if (p.allowedOn(c)) {
                return c;
            }
        }
        return 0;
    }

    /** record_wakee(): count wakee flips, halved once a second. */
    private void recordWakee(Task waker, Task p) {
        if (sim.now > waker.wakeeFlipDecayTs + 1_000_000_000L) {
            waker.wakeeFlips >>= 1;
            waker.wakeeFlipDecayTs = sim.now;
        }
        if (waker.lastWakee != p) {
            waker.lastWakee = p;
            waker.wakeeFlips++;
        }
    }

    /** wake_wide(): 1 when waker and wakee both switch partners often relative to the LLC size. */
    private boolean wakeWide(Task waker, Task p) {
        int master = waker.wakeeFlips;
        int slave = p.wakeeFlips;
        int factor = topo.llcSpan(waker.cpu).length;
        if (master < slave) {
            int t = master;
            master = slave;
            slave = t;
        }
        return !(slave < factor || master < slave * factor);
    }

    /** wake_affine(): WA_IDLE then WA_WEIGHT; anything but this_cpu means prev. */
    private int wakeAffine(Task p, int thisCpu, int prev, boolean sync, int imbalancePct) {
        // wake_affine_idle()
        if (idle(thisCpu) && topo.sharesLlc(thisCpu, prev)) {
            return idle(prev) ? prev : thisCpu;
        }
        if (sync && sim.cpus[thisCpu].nrRunning == 1) {
            return thisCpu;
        }
        if (idle(prev)) {
            return prev;
        }
        // wake_affine_weight(), loads as runnable tasks × NICE_0.
        long thisEff = sim.cpus[thisCpu].nrRunning * 1024L;
        if (sync) {
            long current = 1024;
            if (current > thisEff) {
                return thisCpu;
            }
            thisEff -= current;
        }
        thisEff += p.se.weight;
        thisEff *= 100;
        long prevEff = sim.cpus[prev].nrRunning * 1024L;
        prevEff *= 100 + (imbalancePct - 100) / 2;
        if (sync) {
            prevEff += 1;
        }
        return thisEff < prevEff ? thisCpu : prev;
    }

    /** select_idle_sibling(). */
    int selectIdleSibling(Task p, int prev, int target) {
        if (p.allowedOn(target) && idle(target)) {
            return target;
        }
        if (prev != target && topo.sharesLlc(prev, target) && p.allowedOn(prev) && idle(prev)) {
            return prev;
        }
        int recent = p.recentUsedCpu;
        p.recentUsedCpu = prev;
        if (recent >= 0 && recent != prev && recent != target && topo.sharesLlc(recent, target)
                && idle(recent) && p.allowedOn(recent)) {
            return recent;
        }
        boolean smt = topo.threadsPerCore() > 1;
        boolean hasIdleCore = false;
        if (smt) {
            hasIdleCore = llcHasIdleCore(target);
            if (!hasIdleCore && topo.sharesLlc(prev, target)) {
                int i = selectIdleSmt(p, prev);
                if (i >= 0) {
                    return i;
                }
            }
        }
        int i = selectIdleCpu(p, target, hasIdleCore);
        return i >= 0 ? i : target;
    }

    private boolean coreIdle(int core) {
        for (int c : topo.siblingsOfCore(core)) {
            if (!idle(c)) {
                return false;
            }
        }
        return true;
    }

    private boolean llcHasIdleCore(int target) {
        for (int c : topo.llcSpan(target)) {
            if (topo.threadOf(c) == 0 && coreIdle(topo.coreOf(c))) {
                return true;
            }
        }
        return false;
    }

    /** select_idle_smt(): an idle sibling of prev. */
    private int selectIdleSmt(Task p, int prev) {
        for (int c : topo.siblingsOfCore(topo.coreOf(prev))) {
            if (c != prev && p.allowedOn(c) && idle(c)) {
                return c;
            }
        }
        return -1;
    }

    /** select_idle_cpu(): for_each_cpu_wrap over the LLC from target + 1. */
    private int selectIdleCpu(Task p, int target, boolean hasIdleCore) {
        int[] span = topo.llcSpan(target);
        int n = span.length;
        int start = java.util.Arrays.binarySearch(span, target);
        start = start >= 0 ? start + 1 : -start - 1;
        int fallbackIdle = -1;
        for (int k = 0; k < n; k++) {
            int c = span[(start + k) % n];
            if (!p.allowedOn(c)) {
                continue;
            }
            if (hasIdleCore) {
                // select_idle_core(): the whole core must be idle; remember the first idle CPU.
                if (coreIdle(topo.coreOf(c))) {
                    return c;
                }
                if (fallbackIdle < 0 && idle(c)) {
                    fallbackIdle = c;
                }
            } else if (idle(c)) {
                return c;
            }
        }
        return fallbackIdle;
    }
}
