package dev.schedsim.engine;

import dev.schedsim.engine.kernel.Feature;
import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.topology.HardwareModel;
import dev.schedsim.engine.topology.Topology;
import java.util.List;

/**
 * Load balancing as kernel/sched/fair.c does it (kernel-facts §3–§4): the periodic
 * {@code sched_balance_domains()} raised from the tick when {@code rq->next_balance} is due (and for idle
 * CPUs by the nohz idle balancer), {@code sched_balance_rq()} with should_we_balance, find_busiest_group /
 * find_busiest_queue, detach_tasks with can_migrate_task and task_hot, and active balance after repeated
 * failures; {@code sched_balance_newidle()} when a CPU runs out of work, with the avg_idle gate, the
 * cumulative cost budget and max_newidle_lb_cost with its decay; the SD_SERIALIZE flag taken with a
 * compare-and-swap whose cost grows with contention.
 *
 * <p>Costs are modelled (HardwareModel): each CPU examined by a balance costs {@code balancePerCpuNs},
 * update_blocked_averages costs {@code blockedAveragesPerCfsRqNs} per cfs_rq on the CPU's leaf list, and the
 * CAS on the shared flag costs {@code casBaseNs} plus {@code casPerContenderNs} for every other CPU that
 * touched the line within the last microsecond (doubled when it came from the other socket). These costs
 * are charged as CPU time where they happen and are what the newidle cost tracking measures — the seed
 * features change which of them are paid and counted, never the costs themselves.
 *
 * <p><b>Limitations:</b> no asymmetric capacity, misfit or NUMA imbalance allowance; groups of a level are
 * the spans of the level below; load is the root cfs_rq's PELT load (kernel-facts §5.5).
 */
final class LoadBalancer {
    static final int CPU_IDLE = 0;
    static final int CPU_NOT_IDLE = 1;
    static final int CPU_NEWLY_IDLE = 2;

    static final int GROUP_HAS_SPARE = 0;
    static final int GROUP_FULLY_BUSY = 1;
    static final int GROUP_OVERLOADED = 2;

    static final int MIGRATE_LOAD = 0;
    static final int MIGRATE_UTIL = 1;
    static final int MIGRATE_TASK = 2;

    /** sysctl_sched_migration_cost: 0.5 ms. */
    static final long MIGRATION_COST = 500_000;
    /** sysctl_sched_nr_migrate. */
    static final int NR_MIGRATE = 32;
    /** The window in which other CPUs' accesses to the serialization flag's cache line contend. */
    static final long CAS_WINDOW_NS = 1_000;

    private final Simulation sim;
    private final Topology topo;
    private final HardwareModel hw;
    private final List<DomainLevel> levels;
    private final int nl;
    private final long hz;
    private final boolean costBlockedAverages;
    private final boolean decayAfterWait;
    private final boolean migrationCostGate;
    private final boolean dueBeforeSerialize;
    private final boolean throttleIdleBalance;

    final long[][] lastBalance;
    final int[][] balanceInterval;
    final int[][] nrBalanceFailed;
    final long[][] maxNewidleCost;
    final long[][] lastDecay;
    final long[] nextBalance;
    final long[] avgIdle;
    final long[] maxIdleBalanceCost;
    final long[] idleStamp;
    /** Per LLC: sd_llc_shared->nr_idle_scan (SIS_UTIL). */
    final int[] nrIdleScan;
    private long nohzNextBalance;
    /** CPUs with more than one runnable task: rd->overloaded. */
    int overloadedCpus;
    /** Per LLC: sd_llc_shared->nr_busy_cpus. */
    final int[] llcBusy;
    /** Each CPU's root cfs_rq averages and nr_running, mirrored flat for the balance loops. */
    final long[] cpuLoad;
    final long[] cpuUtil;
    final long[] cpuRunnable;
    final int[] cpuNr;

    // Recent touches of the serialization flag's cache line (a ring of times and sockets).
    private final long[] casTime = new long[64];
    private final int[] casSocket = new int[64];
    private int casHead;

    /** should_we_balance()'s verdict for the levels above: cleared when another CPU is the balancer. */
    private boolean shouldContinue;

    // Statistics.
    long loadBalances;
    long newidleBalances;
    long tasksMoved;
    long activeBalances;
    long serializeAttempts;
    long serializeNs;
    final long[] newidleCostMin;
    final long[] newidleCostMax;
    final double[] newidleCostSum;
    final long[] newidleCostSamples;

    // Scratch for group statistics.
    private final long[] gLoad;
    private final long[] gUtil;
    private final long[] gRunnable;
    private final int[] gNr;
    private final int[] gIdle;
    private final int[] gWeight;
    private final int[] gType;
    private final Task[] detached;
    /** Per level and span: the sched_group index of each position in the span, and the group count. */
    private final int[][][] groupOfPos;
    private final int[][] groupCount;
    /** Per level and CPU: its position in its span. */
    private final int[][] posInSpan;

    LoadBalancer(Simulation sim) {
        this.sim = sim;
        this.topo = sim.topo;
        this.hw = sim.hw;
        this.levels = topo.levels();
        this.nl = levels.size();
        this.hz = sim.kernel.hz();
        this.costBlockedAverages = sim.kernel.on(Feature.NEWIDLE_COST_BLOCKED_AVERAGES);
        this.decayAfterWait = sim.kernel.on(Feature.NEWIDLE_DECAY_AFTER_WAIT);
        this.migrationCostGate = sim.kernel.on(Feature.NEWIDLE_MIGRATION_COST_GATE);
        this.dueBeforeSerialize = sim.kernel.on(Feature.BALANCE_DUE_BEFORE_SERIALIZE);
        this.throttleIdleBalance = sim.kernel.on(Feature.THROTTLE_IDLE_BALANCE);
        int n = sim.ncpu;
        lastBalance = new long[n][nl];
        balanceInterval = new int[n][nl];
        nrBalanceFailed = new int[n][nl];
        maxNewidleCost = new long[n][nl];
        lastDecay = new long[n][nl];
        nextBalance = new long[n];
        avgIdle = new long[n];
        maxIdleBalanceCost = new long[n];
        idleStamp = new long[n];
        for (int c = 0; c < n; c++) {
            for (int l = 0; l < nl; l++) {
                balanceInterval[c][l] = levels.get(l).weight(c);
            }
            // sched_init(): avg_idle = 2 × migration cost, max_idle_balance_cost = migration cost.
            avgIdle[c] = 2 * MIGRATION_COST;
            maxIdleBalanceCost[c] = MIGRATION_COST;
        }
        cpuLoad = new long[n];
        cpuUtil = new long[n];
        cpuRunnable = new long[n];
        cpuNr = new int[n];
        nrIdleScan = new int[topo.llcCount()];
        llcBusy = new int[topo.llcCount()];
        for (int llc = 0; llc < nrIdleScan.length; llc++) {
            // The value for an idle LLC: a freshly booted machine has had time to compute it before a
            // workload starts (the kernel's sd_llc_shared starts at 0 until the first LLC balance).
            nrIdleScan[llc] = topo.llcSpan(firstCpuOfLlc(llc)).length;
        }
        newidleCostMin = new long[nl];
        newidleCostMax = new long[nl];
        newidleCostSum = new double[nl];
        newidleCostSamples = new long[nl];
        java.util.Arrays.fill(newidleCostMin, Long.MAX_VALUE);
        int maxGroups = n;
        gLoad = new long[maxGroups];
        gUtil = new long[maxGroups];
        gRunnable = new long[maxGroups];
        gNr = new int[maxGroups];
        gIdle = new int[maxGroups];
        gWeight = new int[maxGroups];
        gType = new int[maxGroups];
        detached = new Task[NR_MIGRATE + 1];
        groupOfPos = new int[nl][][];
        groupCount = new int[nl][];
        posInSpan = new int[nl][n];
        for (int l = 0; l < nl; l++) {
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
        java.util.Arrays.fill(casTime, Long.MIN_VALUE / 2);
    }

    private int firstCpuOfLlc(int llc) {
        for (int c = 0; c < sim.ncpu; c++) {
            if (topo.llcOf(c) == llc) {
                return c;
            }
        }
        throw new IllegalStateException("empty LLC " + llc);
    }

    private long jiffies() {
        return sim.now / sim.tickNs;
    }

    private long msToJiffies(long ms) {
        return Math.max(1, (ms * hz + 999) / 1000);
    }

    /** max_load_balance_interval = HZ · online CPUs / 10 jiffies. */
    private long maxLoadBalanceInterval() {
        return Math.max(1, hz * sim.ncpu / 10);
    }

    /** get_sd_balance_interval(). */
    private long interval(int cpu, int l, boolean busy) {
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

    // ------------------------------------------------------------------------------------------------
    // The tick: sched_balance_trigger() and nohz idle balancing

    /** Called from a busy CPU's tick. */
    void trigger(Cpu cpu) {
        long j = jiffies();
        if (j >= nextBalance[cpu.id]) {
            balanceDomains(cpu.id, CPU_NOT_IDLE);
        }
        // nohz_balancer_kick(): a busy CPU with work to spare, or in an LLC with more than one busy CPU,
        // kicks an idle CPU to balance on behalf of the idle ones.
        if (j >= nohzNextBalance && (cpu.nrRunning >= 2 || llcBusy[topo.llcOf(cpu.id)] > 1)) {
            nohzIdleBalance(cpu.id);
        }
    }

    private void nohzIdleBalance(int kicker) {
        int ilb = -1;
        long next = Long.MAX_VALUE;
        long j = jiffies();
        for (int c = 0; c < sim.ncpu; c++) {
            if (!sim.cpus[c].idle()) {
                continue;
            }
            if (ilb < 0) {
                ilb = c;
            }
            if (j >= nextBalance[c]) {
                balanceDomains(c, CPU_IDLE);
            }
            next = Math.min(next, nextBalance[c]);
        }
        nohzNextBalance = ilb < 0 ? j + 1 : Math.max(j + 1, next);
    }

    /** sched_balance_domains(). */
    void balanceDomains(int cpu, int idle) {
        long j = jiffies();
        boolean busy = idle != CPU_IDLE;
        boolean continueBalancing = true;
        long next = j + 60 * hz;
        boolean needDecay = false;
        long maxCost = 0;
        sim.updateBlockedAverages(cpu, false);
        for (int l = 0; l < nl; l++) {
            needDecay |= updateNewidleCost(cpu, l, 0);
            maxCost += maxNewidleCost[cpu][l];
            if (!continueBalancing) {
                if (needDecay) {
                    continue;
                }
                break;
            }
            DomainLevel level = levels.get(l);
            long iv = interval(cpu, l, busy);
            boolean serialize = level.serialize();
            boolean due = j >= lastBalance[cpu][l] + iv;
            boolean skip = false;
            if (serialize && (!dueBeforeSerialize || due)) {
                // Up to 6.18 the CAS comes before the "is it due?" check (seed 004 moves it after).
                skip = !takeSerialize(cpu);
            }
            if (!skip && due) {
                shouldContinue = true;
                if (balance(cpu, l, idle) > 0) {
                    idle = CPU_NOT_IDLE;
                    busy = true;
                }
                continueBalancing = shouldContinue;
                lastBalance[cpu][l] = j;
                iv = interval(cpu, l, busy);
            }
            next = Math.min(next, lastBalance[cpu][l] + iv);
        }
        if (needDecay) {
            maxIdleBalanceCost[cpu] = Math.max(MIGRATION_COST, maxCost);
        }
        nextBalance[cpu] = next;
    }

    /**
     * atomic_cmpxchg_acquire(&sched_balance_running, 0, 1): the cache line bounces between the CPUs that
     * touched it recently. Fails when another CPU took it within the window (it still holds it).
     */
    private boolean takeSerialize(int cpu) {
        serializeAttempts++;
        int socket = topo.socketOf(cpu);
        long cost = hw.casBaseNs();
        boolean held = false;
        for (int i = 0; i < casTime.length; i++) {
            if (sim.now - casTime[i] < CAS_WINDOW_NS) {
                cost += hw.casPerContenderNs() * (casSocket[i] == socket ? 1 : 2);
                held = true;
            }
        }
        casTime[casHead] = sim.now;
        casSocket[casHead] = socket;
        casHead = (casHead + 1) % casTime.length;
        serializeNs += cost;
        sim.chargeOverhead(sim.cpus[cpu], cost);
        return !held;
    }

    // ------------------------------------------------------------------------------------------------
    // Newidle

    /**
     * sched_balance_newidle(): called when a CPU found nothing to run. Returns the number of tasks pulled.
     *
     * @param throttledNow a cfs_rq of the previous task was throttled in this very schedule(); before seed
     *                     001's THROTTLE_IDLE_BALANCE the tasks still counted in nr_running then, so the
     *                     idle balance was not attempted.
     */
    int newidle(Cpu cpu, boolean throttledNow) {
        if (throttledNow && !throttleIdleBalance) {
            return 0;
        }
        int c = cpu.id;
        idleStamp[c] = sim.now;
        if (nl == 0) {
            return 0;
        }
        boolean gate = overloadedCpus == 0 || avgIdle[c] < maxNewidleCost[c][0]
                || (migrationCostGate && avgIdle[c] < MIGRATION_COST);
        if (gate) {
            if (!costBlockedAverages) {
                // Before 5.16 blocked averages were updated even when the balance was deferred.
                sim.updateBlockedAverages(c, true);
            }
            nextBalance[c] = Math.min(nextBalance[c], lastBalance[c][0] + interval(c, 0, false));
            return 0;
        }
        newidleBalances++;
        long first = sim.updateBlockedAverages(c, true);
        long pending = costBlockedAverages ? first : 0;
        long currCost = 0;
        int pulled = 0;
        long spent = first;
        for (int l = 0; l < nl; l++) {
            nextBalance[c] = Math.min(nextBalance[c], lastBalance[c][l] + interval(c, l, false));
            if (avgIdle[c] < currCost + maxNewidleCost[c][l]) {
                break;
            }
            long before = cpu.overheadNs;
            pulled = balance(c, l, CPU_NEWLY_IDLE);
            long domainCost = cpu.overheadNs - before + pending;
            spent += cpu.overheadNs - before;
            pending = 0;
            updateNewidleCost(c, l, domainCost);
            sample(l, maxNewidleCost[c][l]);
            currCost += domainCost;
            if (pulled > 0 || sim.cpus[c].nrRunning > 0) {
                break;
            }
        }
        maxIdleBalanceCost[c] = Math.max(maxIdleBalanceCost[c], currCost);
        if (pulled > 0 || cpu.nrRunning > 0) {
            idleStamp[c] = 0;
            // The pulled task starts after the balancing work is done.
            cpu.overheadDebt += spent;
        }
        return pulled;
    }

    private void sample(int l, long v) {
        newidleCostMin[l] = Math.min(newidleCostMin[l], v);
        newidleCostMax[l] = Math.max(newidleCostMax[l], v);
        newidleCostSum[l] += v;
        newidleCostSamples[l]++;
    }

    /**
     * update_newidle_cost(): raise the domain's max cost, or decay it by 253/256 — since 5.16 only after a
     * second without a new maximum (NEWIDLE_DECAY_AFTER_WAIT), before that once a second regardless.
     */
    boolean updateNewidleCost(int cpu, int l, long cost) {
        long j = jiffies();
        if (decayAfterWait) {
            if (cost > maxNewidleCost[cpu][l]) {
                maxNewidleCost[cpu][l] = cost;
                lastDecay[cpu][l] = j;
            } else if (j > lastDecay[cpu][l] + hz) {
                maxNewidleCost[cpu][l] = maxNewidleCost[cpu][l] * 253 / 256;
                lastDecay[cpu][l] = j;
                return true;
            }
            return false;
        }
        if (cost > 0) {
            if (cost > maxNewidleCost[cpu][l]) {
                maxNewidleCost[cpu][l] = cost;
            }
            return false;
        }
        if (j > lastDecay[cpu][l]) {
            maxNewidleCost[cpu][l] = maxNewidleCost[cpu][l] * 253 / 256;
            lastDecay[cpu][l] = j + hz;
            return true;
        }
        return false;
    }

    /** ttwu_do_activate(): a wakeup onto a CPU that was idle feeds avg_idle. */
    void wokenFromIdle(int cpu) {
        if (idleStamp[cpu] == 0) {
            return;
        }
        long delta = sim.now - idleStamp[cpu];
        long max = 2 * maxIdleBalanceCost[cpu];
        avgIdle[cpu] += (delta - avgIdle[cpu]) / 8;
        if (avgIdle[cpu] > max) {
            avgIdle[cpu] = max;
        }
        idleStamp[cpu] = 0;
        Cpu rq = sim.cpus[cpu];
        rq.wakeAvgIdle = avgIdle[cpu] / 2;
        rq.wakeStamp = jiffies();
    }

    // ------------------------------------------------------------------------------------------------
    // sched_balance_rq()

    /** The span of the groups inside a level-l domain: CPUs of level l-1, or single CPUs at level 0. */
    private int groupKey(int l, int c) {
        return l == 0 ? c : levels.get(l - 1).spanOf()[c];
    }

    /** sched_balance_rq(). Returns the number of tasks moved to {@code cpu}. */
    int balance(int cpu, int l, int idle) {
        if (idle != CPU_NEWLY_IDLE) {
            loadBalances++;
        }
        DomainLevel level = levels.get(l);
        int[] span = level.spanOfCpu(cpu);
        Cpu dst = sim.cpus[cpu];
        // should_we_balance()
        if (idle == CPU_NEWLY_IDLE) {
            if (dst.nrRunning > 0) {
                shouldContinue = false;
                return outBalanced(cpu, l, idle);
            }
        } else {
            int first = -1;
            int firstIdle = -1;
            int[] gop = groupOfPos[l][level.spanOf()[cpu]];
            int myGroup = gop[posInSpan[l][cpu]];
            for (int i = 0; i < span.length; i++) {
                int c = span[i];
                if (gop[i] != myGroup) {
                    continue;
                }
                if (first < 0) {
                    first = c;
                }
                if (firstIdle < 0 && sim.cpus[c].idle()) {
                    firstIdle = c;
                }
            }
            int balancer = firstIdle >= 0 ? firstIdle : first;
            if (balancer != cpu) {
                shouldContinue = false;
                return outBalanced(cpu, l, idle);
            }
        }
        sim.chargeOverhead(dst, hw.balancePerCpuNs() * span.length);
        // update_sd_lb_stats(): per group sums (groups indexed by the order they appear in the span).
        int si = level.spanOf()[cpu];
        int[] groupOf = groupOfPos[l][si];
        int groups = groupCount[l][si];
        int localGroup = groupOf[posInSpan[l][cpu]];
        long totalLoad = 0;
        long totalCap = 0;
        long llcUtil = 0;
        for (int g = 0; g < groups; g++) {
            gLoad[g] = 0;
            gUtil[g] = 0;
            gRunnable[g] = 0;
            gNr[g] = 0;
            gIdle[g] = 0;
            gWeight[g] = 0;
        }
        for (int i = 0; i < span.length; i++) {
            int c = span[i];
            int g = groupOf[i];
            // Remote CPUs' averages are read as last updated, as the kernel reads them.
            long load = cpuLoad[c];
            gLoad[g] += load;
            long util = Math.min(cpuUtil[c], 1024);
            gUtil[g] += util;
            llcUtil += util;
            gRunnable[g] += cpuRunnable[c];
            int nr = cpuNr[c];
            gNr[g] += nr;
            if (nr == 0 && sim.cpus[c].curr == null) {
                gIdle[g]++;
            }
            gWeight[g]++;
            totalLoad += load;
            totalCap += 1024;
        }
        int imb = level.imbalancePct();
        if (level.shareLlc() && !level.shareCapacity() && idle != CPU_NEWLY_IDLE) {
            updateIdleCpuScan(cpu, llcUtil, span.length, imb);
        }
        int busiest = -1;
        for (int g = 0; g < groups; g++) {
            gType[g] = classify(g, imb);
            if (g == localGroup || gNr[g] == 0) {
                continue;
            }
            if (busiest < 0 || busier(g, busiest)) {
                busiest = g;
            }
        }
        if (busiest < 0) {
            return outBalanced(cpu, l, idle);
        }
        int local = localGroup;
        long localAvg = gLoad[local] * 1024 / (1024L * gWeight[local]);
        long busiestAvg = gLoad[busiest] * 1024 / (1024L * gWeight[busiest]);
        long sdsAvg = totalLoad * 1024 / totalCap;
        boolean preferSibling = l > 0 && !levels.get(l - 1).serialize();
        boolean force = false;
        if (gType[local] > gType[busiest]) {
            return outBalanced(cpu, l, idle);
        }
        if (gType[local] == GROUP_OVERLOADED) {
            if (localAvg >= busiestAvg || localAvg >= sdsAvg || 100 * busiestAvg <= (long) imb * localAvg) {
                return outBalanced(cpu, l, idle);
            }
        }
        if (preferSibling && gType[local] == GROUP_HAS_SPARE && gNr[busiest] > gNr[local] + 1) {
            force = true;
        }
        if (!force && gType[busiest] != GROUP_OVERLOADED) {
            if (idle == CPU_NOT_IDLE) {
                return outBalanced(cpu, l, idle);
            }
            if (gWeight[busiest] > 1 && gIdle[local] <= gIdle[busiest] + 1) {
                return outBalanced(cpu, l, idle);
            }
            if (gNr[busiest] == 1) {
                return outBalanced(cpu, l, idle);
            }
        }
        // calculate_imbalance()
        int type;
        long imbalance;
        if (gType[local] == GROUP_HAS_SPARE) {
            if (gType[busiest] == GROUP_OVERLOADED && !level.shareLlc()) {
                type = MIGRATE_UTIL;
                imbalance = Math.max(1024L * gWeight[local], gUtil[local]) - gUtil[local];
                if (idle != CPU_NOT_IDLE && imbalance == 0) {
                    type = MIGRATE_TASK;
                    imbalance = 1;
                }
            } else if (gWeight[busiest] == 1 || preferSibling) {
                type = MIGRATE_TASK;
                imbalance = Math.max(0, gNr[busiest] - gNr[local]) >> 1;
            } else {
                type = MIGRATE_TASK;
                imbalance = Math.max(0, gIdle[local] - gIdle[busiest]) >> 1;
            }
        } else {
            if (gType[local] < GROUP_OVERLOADED) {
                if (localAvg >= busiestAvg || localAvg >= sdsAvg) {
                    return outBalanced(cpu, l, idle);
                }
            }
            type = MIGRATE_LOAD;
            imbalance = Math.min((busiestAvg - sdsAvg) * 1024L * gWeight[busiest],
                    (sdsAvg - localAvg) * 1024L * gWeight[local]) / 1024;
        }
        if (imbalance <= 0) {
            return outBalanced(cpu, l, idle);
        }
        // find_busiest_queue()
        int src = -1;
        long best = -1;
        for (int i = 0; i < span.length; i++) {
            if (groupOf[i] != busiest) {
                continue;
            }
            int c = span[i];
            Cpu rq = sim.cpus[c];
            int nr = rq.root.hNrRunning;
            if (nr == 0) {
                continue;
            }
            long v;
            if (type == MIGRATE_LOAD) {
                v = rq.pelt.loadAvg();
                if (nr == 1 && v > imbalance) {
                    continue;
                }
            } else if (type == MIGRATE_UTIL) {
                if (nr <= 1) {
                    continue;
                }
                v = rq.pelt.utilAvg();
            } else {
                v = nr;
            }
            if (v > best) {
                best = v;
                src = c;
            }
        }
        if (src < 0) {
            return outBalanced(cpu, l, idle);
        }
        int moved = 0;
        Cpu busiestRq = sim.cpus[src];
        if (busiestRq.nrRunning > 1) {
            moved = detachAndAttach(busiestRq, dst, l, idle, type, imbalance);
        }
        if (moved == 0) {
            if (idle != CPU_NEWLY_IDLE) {
                nrBalanceFailed[cpu][l]++;
            }
            if (type == MIGRATE_TASK && nrBalanceFailed[cpu][l] > level.cacheNiceTries() + 2
                    && idle != CPU_NEWLY_IDLE) {
                moved = activeBalance(busiestRq, dst);
                if (moved > 0) {
                    nrBalanceFailed[cpu][l] = level.cacheNiceTries() + 1;
                }
            } else {
                balanceInterval[cpu][l] = level.minIntervalMs(cpu);
            }
        } else {
            nrBalanceFailed[cpu][l] = 0;
            balanceInterval[cpu][l] = level.minIntervalMs(cpu);
        }
        return moved;
    }

    private int outBalanced(int cpu, int l, int idle) {
        nrBalanceFailed[cpu][l] = 0;
        DomainLevel level = levels.get(l);
        if (idle != CPU_NEWLY_IDLE && balanceInterval[cpu][l] < level.maxIntervalMs(cpu)) {
            balanceInterval[cpu][l] *= 2;
        }
        return 0;
    }

    /** group_classify() (no misfit, asym or imbalanced groups). */
    private int classify(int g, int imb) {
        long cap = 1024L * gWeight[g];
        if (gNr[g] > gWeight[g] && (cap * 100 < gUtil[g] * imb || cap * imb < gRunnable[g] * 100)) {
            return GROUP_OVERLOADED;
        }
        boolean hasCapacity = gNr[g] < gWeight[g]
                || (cap * imb >= gRunnable[g] * 100 && cap * 100 > gUtil[g] * imb);
        return hasCapacity ? GROUP_HAS_SPARE : GROUP_FULLY_BUSY;
    }

    /** update_sd_pick_busiest() for two candidate groups. */
    private boolean busier(int g, int than) {
        if (gType[g] != gType[than]) {
            return gType[g] > gType[than];
        }
        if (gType[g] == GROUP_HAS_SPARE) {
            if (gIdle[g] != gIdle[than]) {
                return gIdle[g] < gIdle[than];
            }
            return gNr[g] > gNr[than];
        }
        return gLoad[g] * gWeight[than] > gLoad[than] * gWeight[g];
    }

    /**
     * update_idle_cpu_scan() (SIS_UTIL, Chen Yu v5.19): from the LLC domain's periodic balance, the scan depth
     * falls quadratically with LLC utilisation: y = 1024 − min(x²·pct²/(10000·1024), 1024), nr = y·weight/1024.
     */
    private void updateIdleCpuScan(int cpu, long sumUtil, int weight, int pct) {
        long x = sumUtil / weight;
        long tmp = Math.min(x * x * pct * pct / (10000L * 1024), 1024);
        long y = 1024 - tmp;
        nrIdleScan[topo.llcOf(cpu)] = (int) (y * weight / 1024);
    }

    /** detach_tasks() + attach_tasks(): least recently run first, respecting can_migrate_task(). */
    private int detachAndAttach(Cpu src, Cpu dst, int l, int idle, int type, long imbalance) {
        DomainLevel level = levels.get(l);
        int loopMax = Math.min(NR_MIGRATE, src.nrRunning);
        int n = 0;
        int loop = 0;
        Task p = sim.lruTail(src);
        while (p != null) {
            Task prevInList = sim.lruPrev(p);
            if (idle != CPU_NOT_IDLE && src.nrRunning - n <= 1) {
                break;
            }
            if (++loop > loopMax) {
                break;
            }
            if (canMigrate(p, src, dst, level, l)) {
                boolean take = true;
                if (type == MIGRATE_LOAD) {
                    long load = Math.max(sim.taskHLoad(p), 1);
                    if ((load >> Math.min(nrBalanceFailed[dst.id][l], 62)) > imbalance) {
                        take = false;
                    } else {
                        imbalance -= load;
                    }
                } else if (type == MIGRATE_UTIL) {
                    long util = p.pelt.utilAvg();
                    if (util > imbalance) {
                        take = false;
                    } else {
                        imbalance -= util;
                    }
                } else {
                    imbalance--;
                }
                if (take) {
                    detached[n++] = p;
                    if (idle == CPU_NEWLY_IDLE || imbalance <= 0 || n == detached.length) {
                        break;
                    }
                }
            }
            p = prevInList;
        }
        for (int i = 0; i < n; i++) {
            sim.migrate(detached[i], dst.id);
            detached[i] = null;
        }
        tasksMoved += n;
        return n;
    }

    /** can_migrate_task() with task_hot(). */
    private boolean canMigrate(Task p, Cpu src, Cpu dst, DomainLevel level, int l) {
        if (!sim.taskThrottle && (p.group.rq[src.id].throttleCount > 0 || p.group.rq[dst.id].throttleCount > 0)) {
            return false; // throttled_lb_pair() (removed with the task-based throttle)
        }
        if (!p.allowedOn(dst.id) || src.curr == p) {
            return false;
        }
        boolean hot = !level.shareCapacity() && sim.now - p.lastRanNs < MIGRATION_COST;
        return !hot || nrBalanceFailed[dst.id][l] > level.cacheNiceTries();
    }

    /** active_load_balance_cpu_stop(): the stopper preempts busiest's current task and pushes it. */
    private int activeBalance(Cpu src, Cpu dst) {
        Task p = src.curr;
        if (p == null || !p.allowedOn(dst.id) || src.nrRunning < 1) {
            return 0;
        }
        activeBalances++;
        sim.preemptAndMigrate(src, p, dst.id);
        tasksMoved++;
        return 1;
    }
}
