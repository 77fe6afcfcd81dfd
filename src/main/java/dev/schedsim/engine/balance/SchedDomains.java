package dev.schedsim.engine.balance;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.topology.Topology;
import java.util.List;

/**
 * Each CPU's {@code struct sched_domain} at each level, the fields load balancing keeps in it (last_balance,
 * balance_interval, nr_balance_failed, max_newidle_lb_cost, last_decay_max_lb_cost) and rq->next_balance; and the
 * layout of each domain's sched_groups (the spans of the level below). Owned by the balance classes.
 */
final class SchedDomains {
    final List<DomainLevel> levels;
    final int nl;
    final long hz;
    private final int ncpu;
    private final SimClock clock;
    private final long tickNs;

    final long[][] lastBalance;
    final int[][] balanceInterval;
    final int[][] nrBalanceFailed;
    final long[][] maxNewidleCost;
    final long[][] lastDecay;
    /** sd->newidle_call, newidle_success, newidle_ratio (NI_RANDOM): a 50 % success rate to start (sd_init()). */
    final int[][] newidleCall;
    final int[][] newidleSuccess;
    final int[][] newidleRatio;
    /** rq->next_balance. */
    final long[] nextBalance;
    /** Per level and span: the sched_group index of each position in the span, and the group count. */
    final int[][][] groupOfPos;
    final int[][] groupCount;
    /** Per level and CPU: its position in its span. */
    final int[][] posInSpan;

    SchedDomains(Topology topo, KernelConfig kernel, SimClock clock) {
        this.levels = topo.levels();
        this.nl = levels.size();
        this.hz = kernel.hz();
        this.tickNs = kernel.tickNs();
        this.clock = clock;
        int n = topo.cpuCount();
        this.ncpu = n;
        lastBalance = new long[n][nl];
        balanceInterval = new int[n][nl];
        nrBalanceFailed = new int[n][nl];
        maxNewidleCost = new long[n][nl];
        lastDecay = new long[n][nl];
        newidleCall = new int[n][nl];
        newidleSuccess = new int[n][nl];
        newidleRatio = new int[n][nl];
        nextBalance = new long[n];
        for (int c = 0; c < n; c++) {
            for (int l = 0; l < nl; l++) {
                balanceInterval[c][l] = levels.get(l).weight(c);
                newidleCall[c][l] = 512;
                newidleSuccess[c][l] = 256;
                newidleRatio[c][l] = 512;
            }
        }
        groupOfPos = new int[nl][][];
        groupCount = new int[nl][];
        posInSpan = new int[nl][n];
        for (int l = 0; l < nl; l++) {
            buildGroups(l);
        }
    }

    /** The sched_groups of each level-l domain: positions with the same child span form a group. */
    private void buildGroups(int l) {
        int[][] spans = levels.get(l).spans();
        groupOfPos[l] = new int[spans.length][];
        groupCount[l] = new int[spans.length];
        for (int si = 0; si < spans.length; si++) {
            int[] span = spans[si];
            int[] gop = new int[span.length];
            java.util.Map<Integer, Integer> idx = new java.util.HashMap<>();
            for (int i = 0; i < span.length; i++) {
                int key = groupKey(l, span[i]);
                Integer g = idx.get(key);
                if (g == null) {
                    g = idx.size();
                    idx.put(key, g);
                }
                gop[i] = g;
                posInSpan[l][span[i]] = i;
            }
            groupOfPos[l][si] = gop;
            groupCount[l][si] = idx.size();
        }
    }

    /** The span of the groups inside a level-l domain: CPUs of level l-1, or single CPUs at level 0. */
    private int groupKey(int l, int c) {
        return l == 0 ? c : levels.get(l - 1).spanOf()[c];
    }

    long jiffies() {
        return clock.now / tickNs;
    }

    private long msToJiffies(long ms) {
        return Math.max(1, (ms * hz + 999) / 1000);
    }

    /** max_load_balance_interval = HZ · online CPUs / 10 jiffies. */
    private long maxLoadBalanceInterval() {
        return Math.max(1, hz * ncpu / 10);
    }

    /** get_sd_balance_interval(). */
    long getSdBalanceInterval(int cpu, int l, boolean busy) {
        long ms = balanceInterval[cpu][l];
        if (busy) {
            ms *= levels.get(l).busyFactor();
        }
        long j = msToJiffies(ms);
        if (busy) {
            j -= 1;
        }
        return Math.max(1, Math.min(j, maxLoadBalanceInterval()));
    }
}
