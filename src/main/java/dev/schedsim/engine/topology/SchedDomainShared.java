package dev.schedsim.engine.topology;

/**
 * {@code struct sched_domain_shared} of each LLC (include/linux/sched/topology.h), the state the CPUs of one
 * last-level cache share, with one owner each:
 * <ul>
 * <li>{@code nr_busy_cpus} — written by the scheduler core when a CPU starts or stops running tasks, read by the
 * nohz balancer kick;</li>
 * <li>{@code has_idle_cores} — a hint (as in the kernel, not an exact fact): set when a CPU goes idle on a core
 * whose siblings are all idle ({@code __update_idle_core()}), cleared by a select_idle_cpu() scan that found no
 * idle core;</li>
 * <li>{@code nr_idle_scan} — SIS_UTIL's scan depth, written by the LLC domain's periodic balance
 * ({@code update_idle_cpu_scan()}), read by select_idle_cpu();</li>
 * <li>(model) the LLC's idle CPUs and the CPUs of its fully idle cores as cpumasks over the positions in the LLC
 * span, as the SIS_FILTER patches propose, so that select_idle_cpu() can jump to the next set bit instead of
 * testing every CPU. Kept exact by {@link #syncIdle} on every change of a CPU's rq->curr or rq->nr_running; the
 * modelled scan (the CPUs it charges, its depth) is the kernel's.</li>
 * </ul>
 */
public final class SchedDomainShared {
    private final Topology topo;
    private final int threadsPerCore;
    /** Each CPU's position in its LLC span (for_each_cpu_wrap starts after target). */
    private final int[] posInLlc;
    private final long[][] idleCpus;
    private final long[][] idleCoreCpus;
    /** Per core, how many of its hardware threads are idle. */
    private final int[] idleThreads;
    private final boolean[] hasIdleCores;
    /** sd_llc_shared->nr_idle_scan per LLC (SIS_UTIL). */
    public final int[] nrIdleScan;
    /** sd_llc_shared->nr_busy_cpus per LLC. */
    public final int[] nrBusyCpus;

    /** Every CPU starts idle. */
    public SchedDomainShared(Topology topo) {
        this.topo = topo;
        int ncpu = topo.cpuCount();
        this.threadsPerCore = topo.threadsPerCore();
        this.posInLlc = new int[ncpu];
        for (int c = 0; c < ncpu; c++) {
            int[] span = topo.llcSpan(c);
            for (int i = 0; i < span.length; i++) {
                if (span[i] == c) {
                    posInLlc[c] = i;
                }
            }
        }
        int llcs = topo.llcCount();
        this.idleCpus = new long[llcs][];
        this.idleCoreCpus = new long[llcs][];
        for (int c = 0; c < ncpu; c++) {
            int llc = topo.llcOf(c);
            if (idleCpus[llc] == null) {
                int words = (topo.llcSpan(c).length + 63) >>> 6;
                idleCpus[llc] = new long[words];
                idleCoreCpus[llc] = new long[words];
            }
        }
        this.idleThreads = new int[topo.coreCount()];
        for (int c = 0; c < ncpu; c++) {
            setIdle(c, true);
        }
        this.hasIdleCores = new boolean[llcs];
        java.util.Arrays.fill(hasIdleCores, true);
        this.nrBusyCpus = new int[llcs];
        this.nrIdleScan = new int[llcs];
        for (int c = 0; c < ncpu; c++) {
            // The value for an idle LLC: a freshly booted machine has had time to compute it before a workload
            // starts (the kernel's sd_llc_shared starts at 0 until the first LLC balance).
            nrIdleScan[topo.llcOf(c)] = topo.llcSpan(c).length;
        }
    }

    /** CPU c's position in its LLC span. */
    public int posInLlc(int c) {
        return posInLlc[c];
    }

    /**
     * Keeps the LLC's idle cpumasks and the core's idle-thread count in step with available_idle_cpu() of
     * {@code cpu} ({@code idle}: nothing running and nothing queued): called after every write of its rq->curr
     * or rq->nr_running.
     */
    public void syncIdle(int c, boolean idle) {
        int pos = posInLlc[c];
        boolean was = (idleCpus[topo.llcOf(c)][pos >>> 6] & (1L << pos)) != 0;
        if (was != idle) {
            setIdle(c, idle);
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

    /** The LLC's idle CPUs as a cpumask over span positions (read only). */
    public long[] idleCpus(int llc) {
        return idleCpus[llc];
    }

    /** The CPUs of the LLC's fully idle cores as a cpumask over span positions (read only). */
    public long[] idleCoreCpus(int llc) {
        return idleCoreCpus[llc];
    }

    /** How many hardware threads of the core are idle. */
    public int idleThreads(int core) {
        return idleThreads[core];
    }

    /** is_core_idle(): every hardware thread of the core idle. */
    public boolean coreIdle(int core) {
        return idleThreads[core] == threadsPerCore;
    }

    /** test_idle_cores(): the LLC's has_idle_cores hint. */
    public boolean testIdleCores(int llc) {
        return hasIdleCores[llc];
    }

    /** set_idle_cores(cpu, false) after a scan that found no idle core: the hint was stale. */
    public void clearIdleCores(int llc) {
        hasIdleCores[llc] = false;
    }

    /** __update_idle_core(): a CPU going idle on a core whose siblings are all idle sets the hint. */
    public void updateIdleCore(int cpu) {
        if (threadsPerCore > 1 && coreIdle(topo.coreOf(cpu))) {
            hasIdleCores[topo.llcOf(cpu)] = true;
        }
    }

    /** The first set position in [from, to) of a cpumask, or -1 (cpumask_next() bounded by to). */
    public static int firstSet(long[] w, int from, int to) {
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
    public static int nextSetWrap(long[] w, int start, int n, int limit) {
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
}
