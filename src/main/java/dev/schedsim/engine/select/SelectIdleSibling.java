package dev.schedsim.engine.select;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.SisCache;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;

/**
 * select_idle_sibling() (kernel/sched/fair.c) in the kernel's order: target, prev,
 * recent_used_cpu, an idle SMT sibling of prev, then select_idle_cpu() — an idle core when the LLC's
 * has_idle_cores hint says there may be one, else an idle CPU — scanning the LLC from target + 1.
 *
 * <p>The scan depth comes from SIS_UTIL (LLC utilisation, from the LLC domain's periodic balance) or, with SIS_UTIL
 * off, SIS_PROP (the waker CPU's predicted idle time over the average scan cost of the waker's own LLC domain: each
 * CPU has its own sched_domain, so its own {@code avg_scan_cost}). SIS_CACHE (seed 002, its v2)
 * skips idle CPUs that a short sleeper left cache-hot, for half of SIS_UTIL's depth at most ({@link #scanEach}).
 * Each CPU examined costs {@code idleScanPerCpuNs} on the waker's CPU.
 * <p><b>Limitations:</b> no EAS, no asymmetric capacity, no per-CPU-kthread stacking.
 */
public final class SelectIdleSibling {
    private final Cpu[] cpus;
    private final Topology topo;
    private final SchedDomainShared shared;
    private final SimClock clock;
    private final Execution execution;
    private final SisCache sisCache;
    private final long scanCostNs;
    private final long tickNs;
    private final boolean sisUtil; // SIS_UTIL
    /**
     * SIS_PROP: each CPU's {@code this_sd->avg_scan_cost} (select_idle_cpu() reads and updates the waker CPU's own
     * sd_llc, {@code rcu_dereference(*this_cpu_ptr(&sd_llc))}, not the target's).
     */
    private final long[] avgScanCost;
    /** select_idle_cpu() scans, and the CPUs they examined. */
    public long idleScans;
    public long cpusScanned;

    /** The report starts here (after warm-up runs). */
    public void resetCounts() {
        idleScans = 0;
        cpusScanned = 0;
    }
    /** Results of the last select_idle_cpu() scan besides the CPU found (no allocation per wakeup). */
    private int scanScanned;
    private int scanFallbackIdle;
    private int scanFirstHot;
    /** The last scan returned on its depth ({@code if (!--nr) return -1;}), before SIS_PROP's accounting. */
    private boolean scanDepthOut;

    public SelectIdleSibling(KernelConfig kernel, HardwareModel hw, Cpu[] cpus, Topology topo,
                             SchedDomainShared shared, SimClock clock, Execution execution, SisCache sisCache) {
        this.cpus = cpus;
        this.topo = topo;
        this.shared = shared;
        this.clock = clock;
        this.execution = execution;
        this.sisCache = sisCache;
        this.scanCostNs = hw.idleScanPerCpuNs();
        this.tickNs = kernel.tickNs();
        this.sisUtil = kernel.on(Feature.SIS_UTIL);
        this.avgScanCost = new long[cpus.length];
    }

    private boolean idle(int c) {
        return cpus[c].idle();
    }

    /** SIS_PROP's average scan cost of {@code cpu}'s LLC domain, ns (for tests). */
    long avgScanCost(int cpu) {
        return avgScanCost[cpu];
    }

    /** select_idle_sibling(); the scan's cost is charged to {@code wakerCpu}. */
    public int selectIdleSibling(Task p, int prev, int target, int wakerCpu) {
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
            hasIdleCore = shared.testIdleCores(topo.llcOf(target));
            if (!hasIdleCore && topo.sharesLlc(prev, target)) {
                int i = selectIdleSmt(p, prev);
                if (i >= 0) {
                    return i;
                }
            }
        }
        int i = selectIdleCpu(p, target, hasIdleCore, cpus[wakerCpu]);
        return i >= 0 ? i : target;
    }

    /** select_idle_smt(): an idle sibling of prev. */
    private int selectIdleSmt(Task p, int prev) {
        int core = topo.coreOf(prev);
        if (shared.idleThreads(core) == (idle(prev) ? 1 : 0)) {
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
     * select_idle_cpu(): for_each_cpu_wrap over the LLC from target + 1, depth-limited by SIS_UTIL or SIS_PROP
     * unless looking for an idle core; SIS_CACHE skips cache-hot idle CPUs.
     */
    private int selectIdleCpu(Task p, int target, boolean hasIdleCore, Cpu waker) {
        int[] span = topo.llcSpan(target);
        int n = span.length;
        int llc = topo.llcOf(target);
        int nr = Integer.MAX_VALUE;
        boolean prop = false;
        if (sisUtil) { // SIS_UTIL
            nr = shared.nrIdleScan[llc] + 1;
            if (nr == 1) {
                return -1;
            }
        } else if (!hasIdleCore) {
            nr = sisPropDepth(waker, n);
            prop = true;
        }
        idleScans++;
        int idx = shared.posInLlc(target) + 1;
        if (idx == n) {
            idx = 0;
        }
        int scanned;
        int found = -1;
        scanFallbackIdle = -1;
        scanFirstHot = -1;
        scanDepthOut = false;
        if (p.allowed == null && !sisCache.on()) { // SIS_CACHE (off)
            found = scanMasks(span, idx, nr, hasIdleCore, llc);
        } else {
            found = scanEach(p, span, idx, nr, hasIdleCore);
        }
        scanned = scanScanned;
        cpusScanned += scanned;
        long cost = scanCostNs * scanned;
        execution.chargeOverhead(waker, cost);
        if (prop && !scanDepthOut) {
            // Only a scan that found a CPU or went round the LLC gets here in the kernel: one whose depth ran out
            // returned -1 from inside the loop (select_idle_cpu() of 5.13-5.19; the same shape since select_idle_cpu()
            // and its avg_scan_cost came in 4.9), its time spent but neither counted against wake_avg_idle nor
            // averaged into avg_scan_cost.
            waker.wakeAvgIdle -= Math.min(waker.wakeAvgIdle, cost);
            avgScanCost[waker.id] += (cost - avgScanCost[waker.id]) / 8;
        }
        if (found >= 0) {
            return found;
        }
        if (hasIdleCore) {
            shared.clearIdleCores(llc);
            return scanFallbackIdle;
        }
        return scanFirstHot;
    }

    /** SIS_PROP: age the waker's predicted idle time by the jiffies it has been busy; the scan depth from it. */
    private int sisPropDepth(Cpu waker, int n) {
        long j = clock.now / tickNs;
        while (waker.wakeStamp < j && waker.wakeAvgIdle > 0) {
            waker.wakeStamp++;
            waker.wakeAvgIdle >>= 1;
        }
        long avgCost = avgScanCost[waker.id] + 1;
        long spanAvg = n * waker.wakeAvgIdle;
        return spanAvg > 4 * avgCost ? (int) Math.min(Integer.MAX_VALUE, spanAvg / avgCost) : 4;
    }

    /**
     * The scan on the idle cpumasks: jump to the first idle core (select_idle_core()) or the first idle CPU within
     * the depth; every CPU stepped over still counts as scanned.
     */
    private int scanMasks(int[] span, int idx, int nr, boolean hasIdleCore, int llc) {
        int n = span.length;
        int found = -1;
        int limit = hasIdleCore ? n : Math.min(n, Math.max(0, nr - 1));
        int d = SchedDomainShared.nextSetWrap(hasIdleCore ? shared.idleCoreCpus(llc) : shared.idleCpus(llc), idx,
                n, limit);
        if (d >= 0) {
            int pos = idx + d;
            found = span[pos >= n ? pos - n : pos];
            scanScanned = d + 1;
        } else {
            scanScanned = limit;
            scanDepthOut = limit < n;
            if (hasIdleCore) {
                int f = SchedDomainShared.nextSetWrap(shared.idleCpus(llc), idx, n, n);
                if (f >= 0) {
                    int pos = idx + f;
                    scanFallbackIdle = span[pos >= n ? pos - n : pos];
                }
            }
        }
        return found;
    }

    /**
     * The for_each_cpu_wrap() loop of select_idle_cpu() CPU by CPU, for a task with an affinity mask or with
     * SIS_CACHE, as the seed's v2 has it ("[PATCH v2 3/3] sched/fair: skip the cache hot CPU in
     * select_idle_cpu()", 2023-11-21, quoted whole in Madadi Vineeth Reddy's reply of 2023-11-29): returns the CPU
     * found or -1, and leaves the CPUs examined, the first idle CPU (select_idle_core()'s *idle_cpu) and the CPU to
     * fall back on in {@link #scanScanned}, {@link #scanFallbackIdle} and {@link #scanFirstHot}.
     *
     * <p>With SIS_CACHE an idle core or idle CPU that is cache-hot (cache_hot_cpu()) is passed over, but only the
     * first {@code nr_hot = nr >> 1} idle candidates may be (half of SIS_UTIL's depth, and none without SIS_UTIL:
     * nr_hot is set only there); the candidate after them is taken hot or not. Looking for an idle CPU, a depth
     * that runs out ({@code if (--nr <= 0) return -1;}) drops the hot ones seen and the wakee goes to the target;
     * a scan that goes round the whole LLC ends on the last CPU it examined if that was a hot idle one, else on the
     * first hot one ({@code if (idle_cpu == -1 && hot_cpu != -1) idle_cpu = hot_cpu;}).
     */
    private int scanEach(Task p, int[] span, int idx, int nr, boolean hasIdleCore) {
        int n = span.length;
        int hotCpu = -1;
        int fallbackIdle = -1;
        int lastIdle = -1;
        int scanned = 0;
        int found = -1;
        boolean sisCacheOn = sisCache.on(); // SIS_CACHE
        int nrHot = sisUtil ? nr >> 1 : 0;
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
                // select_idle_core(): the whole core must be idle; *idle_cpu is the first idle CPU seen.
                scanned++;
                boolean idle = idle(c);
                if (fallbackIdle < 0 && idle) {
                    fallbackIdle = c;
                }
                if (idle && shared.coreIdle(topo.coreOf(c))) {
                    if (sisCacheOn && --nrHot >= 0 && sisCache.cacheHot(cpus[c])) {
                        hotCpu = hotCpu < 0 ? c : hotCpu;
                        continue;
                    }
                    found = c;
                }
                continue;
            }
            if (--nr <= 0) {
                // The depth ran out: return -1, whatever hot CPU was seen.
                scanDepthOut = true;
                scanScanned = scanned;
                scanFallbackIdle = -1;
                scanFirstHot = -1;
                return -1;
            }
            scanned++;
            lastIdle = -1;
            if (!idle(c)) {
                continue;
            }
            if (sisCacheOn && --nrHot >= 0 && sisCache.cacheHot(cpus[c])) {
                hotCpu = hotCpu < 0 ? c : hotCpu;
                lastIdle = c;
                continue;
            }
            found = c;
        }
        scanScanned = scanned;
        scanFallbackIdle = fallbackIdle >= 0 ? fallbackIdle : hotCpu;
        scanFirstHot = lastIdle >= 0 ? lastIdle : hotCpu;
        return found;
    }
}
