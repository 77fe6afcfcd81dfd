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
 * <p>The select_idle_cpu() scan depth comes from SIS_UTIL (LLC utilisation, computed by the LLC domain's
 * periodic balance) or, with SIS_UTIL off, SIS_PROP (the waker CPU's predicted idle time over the LLC's
 * average scan cost). SIS_CACHE (seed 002) skips idle CPUs that a short sleeper left cache-hot, scanning
 * at most half the depth for them and falling back to the first hot one. Each CPU examined costs
 * {@code idleScanPerCpuNs} on the waker's CPU.
 * <p><b>Limitations:</b> has_idle_cores is computed exactly instead of kept as a hint; no EAS, no
 * asymmetric capacity, no per-CPU-kthread stacking.
 */
final class Placement {
    private final Simulation sim;
    private final Topology topo;
    private final boolean sisUtil;
    private final boolean sisCache;
    /** SIS_PROP: sd_llc->avg_scan_cost per LLC. */
    private final long[] avgScanCost;
    private int scanCpu;
    /** sd_llc_shared->has_idle_cores: a hint, set when a CPU goes idle on an idle core, cleared by a failed scan. */
    private final boolean[] hasIdleCores;
    private final int[] nodeSizes;
    // Fork balancing state: tasks placed per CPU, core, LLC and node, and each level's best CPU.
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
    private final DomainLevel[] levels;
    /** Each CPU's position in its LLC span (for_each_cpu_wrap starts after target). */
    private final int[] posInLlc;
    /**
     * Per LLC, its idle CPUs (available_idle_cpu()) as a cpumask over the positions in the LLC span, and the
     * CPUs whose whole core is idle: the model's counterpart of an idle cpumask in sd_llc_shared (as the
     * SIS_FILTER patches propose), so that select_idle_cpu() can cpumask_and() and jump to the next set bit
     * instead of testing every CPU. Kept exact by {@link #syncIdle} on every change of rq->curr and
     * rq->nr_running; the modelled scan (the CPUs it charges, its depth) is unchanged.
     */
    private final long[][] idleCpus;
    private final long[][] idleCoreCpus;
    /** Per core, how many of its hardware threads are idle. */
    private final int[] idleThreads;
    private final int threadsPerCore;
    long idleScans;
    long cpusScanned;
    /** Results of the last select_idle_cpu() scan besides the CPU found (no allocation per wakeup). */
    private int scanScanned;
    private int scanFallbackIdle;
    private int scanFirstHot;

    Placement(Simulation sim) {
        this.sim = sim;
        this.topo = sim.topo;
        this.sisUtil = sim.kernel.on(dev.schedsim.engine.kernel.Feature.SIS_UTIL);
        this.sisCache = sim.kernel.on(dev.schedsim.engine.kernel.Feature.SIS_CACHE);
        this.avgScanCost = new long[topo.llcCount()];
        this.hasIdleCores = new boolean[topo.llcCount()];
        this.levels = topo.levels().toArray(new DomainLevel[0]);
        this.posInLlc = new int[sim.ncpu];
        for (int c = 0; c < sim.ncpu; c++) {
            int[] span = topo.llcSpan(c);
            for (int i = 0; i < span.length; i++) {
                if (span[i] == c) {
                    posInLlc[c] = i;
                }
            }
        }
        this.threadsPerCore = topo.threadsPerCore();
        this.idleCpus = new long[topo.llcCount()][];
        this.idleCoreCpus = new long[topo.llcCount()][];
        for (int c = 0; c < sim.ncpu; c++) {
            int llc = topo.llcOf(c);
            if (idleCpus[llc] == null) {
                int words = (topo.llcSpan(c).length + 63) >>> 6;
                idleCpus[llc] = new long[words];
                idleCoreCpus[llc] = new long[words];
            }
        }
        this.idleThreads = new int[topo.coreCount()];
        for (int c = 0; c < sim.ncpu; c++) {
            if (sim.cpus[c].idle()) {
                setIdle(c, true);
            }
        }
        this.nodeSizes = new int[topo.spec().sockets() * topo.spec().numaNodesPerSocket()];
        for (int c = 0; c < sim.ncpu; c++) {
            nodeSizes[topo.nodeOf(c)]++;
        }
        int cores = topo.coreCount();
        placed = new long[sim.ncpu];
        corePlaced = new long[cores];
        llcPlaced = new long[topo.llcCount()];
        nodePlaced = new long[nodeSizes.length];
        java.util.List<java.util.List<Integer>> byLlc = new java.util.ArrayList<>();
        for (int l = 0; l < topo.llcCount(); l++) {
            byLlc.add(new java.util.ArrayList<>());
        }
        for (int core = 0; core < cores; core++) {
            byLlc.get(topo.llcOf(topo.siblingsOfCore(core)[0])).add(core);
        }
        coresOfLlc = new int[topo.llcCount()][];
        java.util.List<java.util.List<Integer>> byNode = new java.util.ArrayList<>();
        for (int nd = 0; nd < nodeSizes.length; nd++) {
            byNode.add(new java.util.ArrayList<>());
        }
        for (int l = 0; l < topo.llcCount(); l++) {
            coresOfLlc[l] = byLlc.get(l).stream().mapToInt(Integer::intValue).toArray();
            byNode.get(topo.nodeOf(topo.siblingsOfCore(coresOfLlc[l][0])[0])).add(l);
        }
        llcsOfNode = new int[nodeSizes.length][];
        for (int nd = 0; nd < nodeSizes.length; nd++) {
            llcsOfNode[nd] = byNode.get(nd).stream().mapToInt(Integer::intValue).toArray();
        }
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
        java.util.Arrays.fill(hasIdleCores, true);
    }

    private boolean idle(int c) {
        return sim.cpus[c].idle();
    }

    /**
     * Keeps the LLC's idle cpumasks and the core's idle-thread count in step with available_idle_cpu() of
     * {@code cpu}: called after every write of its rq->curr or rq->nr_running.
     */
    void syncIdle(Cpu cpu) {
        int c = cpu.id;
        int pos = posInLlc[c];
        boolean was = (idleCpus[topo.llcOf(c)][pos >>> 6] & (1L << pos)) != 0;
        boolean now = cpu.curr == null && cpu.nrRunning == 0;
        if (was != now) {
            setIdle(c, now);
        }
    }

    private void setIdle(int c, boolean idle) {
        int llc = topo.llcOf(c);
        int pos = posInLlc[c];
        int core = topo.coreOf(c);
        if (idle) {
            idleCpus[llc][pos >>> 6] |= 1L << pos;
            if (++idleThreads[core] == threadsPerCore) {
                markCore(llc, core, true);
            }
        } else {
            idleCpus[llc][pos >>> 6] &= ~(1L << pos);
            if (idleThreads[core]-- == threadsPerCore) {
                markCore(llc, core, false);
            }
        }
    }

    private void markCore(int llc, int core, boolean idle) {
        long[] w = idleCoreCpus[llc];
        for (int s : topo.siblingsOfCore(core)) {
            int pos = posInLlc[s];
            if (idle) {
                w[pos >>> 6] |= 1L << pos;
            } else {
                w[pos >>> 6] &= ~(1L << pos);
            }
        }
    }

    /** The first set position in [from, to) of a cpumask, or -1 (cpumask_next() bounded by to). */
    private static int firstSet(long[] w, int from, int to) {
        if (from >= to) {
            return -1;
        }
        int wi = from >>> 6;
        int last = (to - 1) >>> 6;
        long word = w[wi] & (-1L << from);
        while (word == 0) {
            if (++wi > last) {
                return -1;
            }
            word = w[wi];
        }
        int i = (wi << 6) + Long.numberOfTrailingZeros(word);
        return i < to ? i : -1;
    }

    /**
     * for_each_cpu_wrap() from position {@code start} of an n-CPU span, stopping at the first set bit: its
     * distance from start, or -1 when none of the first {@code limit} positions is set.
     */
    private static int nextSetWrap(long[] w, int start, int n, int limit) {
        int end = start + limit;
        if (end <= n) {
            int i = firstSet(w, start, end);
            return i < 0 ? -1 : i - start;
        }
        int i = firstSet(w, start, n);
        if (i >= 0) {
            return i - start;
        }
        i = firstSet(w, 0, end - n);
        return i < 0 ? -1 : i + n - start;
    }

    /**
     * Fork/exec balancing: the idlest node, then LLC, then core, then CPU, counting the tasks already placed
     * ({@code find_idlest_group} / {@code find_idlest_group_cpu} walk the domains top-down the same way).
     */
    int forkCpu(Task p) {
        int best = -1;
        if (p.allowed == null) {
            best = bestOfNode[bestNode];
        } else {
            for (int c = 0; c < sim.ncpu; c++) {
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
        return better(a, b, nodePlaced, llcPlaced, corePlaced, placed)
                || (!better(b, a, nodePlaced, llcPlaced, corePlaced, placed) && a < b);
    }

    /**
     * Counts a forked task on {@code cpu} and refreshes the best CPU of its core, LLC, node and the machine
     * (each level's best is the best of its children's, so only the path from the CPU up changes).
     */
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

    private boolean better(int a, int b, long[] node, long[] llc, long[] core, long[] placed) {
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
        return nodeSizes[topo.nodeOf(cpu)];
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
            for (DomainLevel l : levels) {
                if (!l.wakeAffine()) {
                    break;
                }
                int[] spanOf = l.spanOf();
                if (spanOf[thisCpu] == spanOf[prev]) {
                    target = wakeAffine(p, thisCpu, prev, sync, l.imbalancePct());
                    break;
                }
            }
        }
        scanCpu = thisCpu;
        int cpu = selectIdleSibling(p, prev, target);
        return p.allowedOn(cpu) ? cpu : fallback(p);
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
        // wake_affine_weight() on PELT loads (cpu_load, task_h_load).
        Cpu thisRq = sim.cpus[thisCpu];
        Cpu prevRq = sim.cpus[prev];
        sim.updateCpuPelt(thisRq);
        sim.updateCpuPelt(prevRq);
        long taskLoad = p.pelt.loadAvg();
        long thisEff = thisRq.pelt.loadAvg();
        if (sync) {
            Task waker = thisRq.curr;
            long current = waker == null ? 0 : waker.pelt.loadAvg();
            if (current > thisEff) {
                return thisCpu;
            }
            thisEff -= current;
        }
        thisEff += taskLoad;
        thisEff *= 100;
        long prevEff = Math.max(0, prevRq.pelt.loadAvg() - taskLoad);
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
            hasIdleCore = hasIdleCores[topo.llcOf(target)];
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

    /** is_core_idle(): every hardware thread of the core idle. */
    private boolean coreIdle(int core) {
        return idleThreads[core] == threadsPerCore;
    }

    /** __update_idle_core(): a CPU going idle on a core whose siblings are all idle sets the hint. */
    void updateIdleCore(int cpu) {
        if (topo.threadsPerCore() > 1 && coreIdle(topo.coreOf(cpu))) {
            hasIdleCores[topo.llcOf(cpu)] = true;
        }
    }

    /** select_idle_smt(): an idle sibling of prev. */
    private int selectIdleSmt(Task p, int prev) {
        int core = topo.coreOf(prev);
        if (idleThreads[core] == (idle(prev) ? 1 : 0)) {
            return -1;
        }
        for (int c : topo.siblingsOfCore(core)) {
            if (c != prev && p.allowedOn(c) && idle(c)) {
                return c;
            }
        }
        return -1;
    }

    /**
     * select_idle_cpu(): for_each_cpu_wrap over the LLC from target + 1, depth-limited by SIS_UTIL or
     * SIS_PROP unless looking for an idle core; SIS_CACHE skips cache-hot idle CPUs.
     */
    private int selectIdleCpu(Task p, int target, boolean hasIdleCore) {
        int[] span = topo.llcSpan(target);
        int n = span.length;
        int llc = topo.llcOf(target);
        Cpu waker = sim.cpus[scanCpu];
        int nr = Integer.MAX_VALUE;
        boolean prop = false;
        if (sisUtil) {
            nr = sim.balancer.nrIdleScan[llc] + 1;
            if (nr == 1) {
                return -1;
            }
        } else if (!hasIdleCore) {
            // SIS_PROP: age the waker's predicted idle time by the jiffies it has been busy.
            long j = sim.now / sim.tickNs;
            while (waker.wakeStamp < j && waker.wakeAvgIdle > 0) {
                waker.wakeStamp++;
                waker.wakeAvgIdle >>= 1;
            }
            long avgCost = avgScanCost[llc] + 1;
            long spanAvg = n * waker.wakeAvgIdle;
            nr = spanAvg > 4 * avgCost ? (int) Math.min(Integer.MAX_VALUE, spanAvg / avgCost) : 4;
            prop = true;
        }
        idleScans++;
        int idx = posInLlc[target] + 1;
        if (idx == n) {
            idx = 0;
        }
        int scanned;
        int found = -1;
        scanFallbackIdle = -1;
        scanFirstHot = -1;
        if (p.allowed == null && !sisCache) {
            // The same scan on the idle cpumasks: jump to the first idle core (select_idle_core()) or the
            // first idle CPU within the depth; every CPU stepped over still counts as scanned.
            int limit = hasIdleCore ? n : Math.min(n, Math.max(0, nr - 1));
            int d = nextSetWrap(hasIdleCore ? idleCoreCpus[llc] : idleCpus[llc], idx, n, limit);
            if (d >= 0) {
                int pos = idx + d;
                found = span[pos >= n ? pos - n : pos];
                scanned = d + 1;
            } else {
                scanned = limit;
                if (hasIdleCore) {
                    int f = nextSetWrap(idleCpus[llc], idx, n, n);
                    if (f >= 0) {
                        int pos = idx + f;
                        scanFallbackIdle = span[pos >= n ? pos - n : pos];
                    }
                }
            }
        } else {
            found = scanEach(p, span, idx, nr, hasIdleCore);
            scanned = scanScanned;
        }
        cpusScanned += scanned;
        long cost = sim.hw.idleScanPerCpuNs() * scanned;
        sim.chargeOverhead(waker, cost);
        if (prop) {
            waker.wakeAvgIdle -= Math.min(waker.wakeAvgIdle, cost);
            avgScanCost[llc] += (cost - avgScanCost[llc]) / 8;
        }
        if (found >= 0) {
            return found;
        }
        if (hasIdleCore) {
            // set_idle_cores(target, false): the hint was stale.
            hasIdleCores[llc] = false;
            return scanFallbackIdle >= 0 ? scanFallbackIdle : scanFirstHot;
        }
        return scanFirstHot;
    }

    /**
     * The for_each_cpu_wrap() loop of select_idle_cpu() CPU by CPU, for a task with an affinity mask or with
     * SIS_CACHE: returns the CPU found or -1, and leaves the CPUs examined, the first idle CPU (for
     * select_idle_core()) and the first cache-hot idle CPU in {@link #scanScanned},
     * {@link #scanFallbackIdle} and {@link #scanFirstHot}.
     */
    private int scanEach(Task p, int[] span, int idx, int nr, boolean hasIdleCore) {
        int n = span.length;
        int hotLimit = Math.max(1, nr == Integer.MAX_VALUE ? n / 2 : nr / 2);
        int hotSeen = 0;
        int firstHot = -1;
        int fallbackIdle = -1;
        int scanned = 0;
        int found = -1;
        boolean[] allowed = p.allowed;
        for (int k = 0; k < n && found < 0; k++) {
            int c = span[idx];
            if (++idx == n) {
                idx = 0;
            }
            if (allowed != null && !allowed[c]) {
                continue;
            }
            if (hasIdleCore) {
                // select_idle_core(): the whole core must be idle; remember the first idle CPU. With
                // SIS_CACHE a cache-hot idle CPU is neither taken nor remembered (cache_hot_cpu()).
                scanned++;
                boolean hot = sisCache && idle(c) && sim.now < sim.cpus[c].cacheHotTimeout;
                if (hot) {
                    if (firstHot < 0) {
                        firstHot = c;
                    }
                    if (++hotSeen >= hotLimit) {
                        break;
                    }
                    continue;
                }
                if (coreIdle(topo.coreOf(c))) {
                    found = c;
                } else if (fallbackIdle < 0 && idle(c)) {
                    fallbackIdle = c;
                }
                continue;
            }
            if (--nr <= 0) {
                break;
            }
            scanned++;
            if (!idle(c)) {
                continue;
            }
            if (sisCache && sim.now < sim.cpus[c].cacheHotTimeout) {
                if (firstHot < 0) {
                    firstHot = c;
                }
                if (++hotSeen >= hotLimit) {
                    break;
                }
                continue;
            }
            found = c;
        }
        scanScanned = scanned;
        scanFallbackIdle = fallbackIdle;
        scanFirstHot = firstHot;
        return found;
    }
}
