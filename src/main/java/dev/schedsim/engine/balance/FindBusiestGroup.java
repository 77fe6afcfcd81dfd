package dev.schedsim.engine.balance;

import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.topology.DomainLevel;
import dev.schedsim.engine.topology.RootDomain;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;

/**
 * sched_balance_find_src_group() (find_busiest_group() before 6.10) with update_sd_lb_stats(),
 * group_classify(), update_sd_pick_busiest() and calculate_imbalance() (kernel/sched/fair.c): the statistics of
 * each sched_group of a CPU's domain (its {@code struct sd_lb_stats} and {@code sg_lb_stats}), whether to balance,
 * from which group, what and how much. The LLC domain's periodic balance also computes SIS_UTIL's scan depth
 * ({@code update_idle_cpu_scan()}). Remote CPUs' averages are read as last updated, as the kernel reads them.
 */
final class FindBusiestGroup {
    private static final int HAS_SPARE = GroupType.HAS_SPARE.ordinal();
    private static final int FULLY_BUSY = GroupType.FULLY_BUSY.ordinal();
    private static final int OVERLOADED = GroupType.OVERLOADED.ordinal();

    private final SchedDomains sd;
    private final Cpu[] cpus;
    private final LoadTracking pelt;
    private final RunQueues rqs;
    private final SchedDomainShared shared;
    private final Topology topo;
    private final RootDomain rd;

    // sg_lb_stats of each group (indexed by the order the groups appear in the span).
    private final long[] gLoad;
    private final long[] gUtil;
    private final long[] gRunnable;
    private final int[] gNr;
    private final int[] gIdle;
    private final int[] gWeight;
    /** Each group's {@link GroupType}, as its ordinal (an int array: no reference stores in this loop). */
    private final int[] gType;
    private long totalLoad;
    private long totalCap;
    private long llcUtil;

    /** The result: the busiest group, and what to move and how much. */
    int busiest;
    MigrationType type;
    long imbalance;

    FindBusiestGroup(SchedDomains sd, Cpu[] cpus, LoadTracking pelt, RunQueues rqs, SchedDomainShared shared,
                     Topology topo, RootDomain rd) {
        this.rd = rd;
        this.sd = sd;
        this.cpus = cpus;
        this.pelt = pelt;
        this.rqs = rqs;
        this.shared = shared;
        this.topo = topo;
        int maxGroups = cpus.length;
        gLoad = new long[maxGroups];
        gUtil = new long[maxGroups];
        gRunnable = new long[maxGroups];
        gNr = new int[maxGroups];
        gIdle = new int[maxGroups];
        gWeight = new int[maxGroups];
        gType = new int[maxGroups];
    }

    /**
     * Whether {@code cpu}'s level-l domain is imbalanced enough to pull from its busiest group; then
     * {@link #busiest}, {@link #groupOf}, {@link #type} and {@link #imbalance} say from where, what and how much.
     */
    boolean findBusiestGroup(int cpu, int l, IdleType idle) {
        DomainLevel level = sd.levels.get(l);
        int si = level.spanOf()[cpu];
        int[] span = level.spans()[si];
        int[] groupOf = sd.groupOfPos[l][si];
        int localGroup = groupOf[sd.posInSpan[l][cpu]];
        int groups = sd.groupCount[l][si];
        boolean sgOverloaded = updateSdLbStats(span, groupOf, groups);
        if (l == sd.nl - 1) {
            rd.setRdOverloaded(sgOverloaded); // update_sd_lb_stats() at the root domain (!env->sd->parent)
        }
        int imb = level.imbalancePct();
        if (level.shareLlc() && !level.shareCapacity() && idle != IdleType.CPU_NEWLY_IDLE) {
            updateIdleCpuScan(cpu, llcUtil, span.length, imb);
        }
        int b = -1;
        for (int g = 0; g < groups; g++) {
            gType[g] = groupClassify(g, imb);
            if (g == localGroup || gNr[g] == 0) {
                continue;
            }
            if (b < 0 || updateSdPickBusiest(g, b)) {
                b = g;
            }
        }
        busiest = b;
        if (b < 0) {
            return false;
        }
        boolean preferSibling = l > 0 && !sd.levels.get(l - 1).serialize();
        return balanced(localGroup, idle, imb, preferSibling)
                && calculateImbalance(localGroup, level, idle, preferSibling);
    }

    /** update_sd_lb_stats(): per group sums over the span; whether a CPU of it has more than one task. */
    private boolean updateSdLbStats(int[] span, int[] groupOf, int groups) {
        for (int g = 0; g < groups; g++) {
            gLoad[g] = 0;
            gUtil[g] = 0;
            gRunnable[g] = 0;
            gNr[g] = 0;
            gIdle[g] = 0;
            gWeight[g] = 0;
        }
        long[] cpuLoad = pelt.cpuLoad;
        long[] cpuUtil = pelt.cpuUtil;
        long[] cpuRunnable = pelt.cpuRunnable;
        int[] cpuNr = rqs.nrRunning;
        long load = 0;
        long util = 0;
        boolean sgOverloaded = false;
        for (int i = 0; i < span.length; i++) {
            int c = span[i];
            int g = groupOf[i];
            long l = cpuLoad[c];
            gLoad[g] += l;
            long u = Math.min(cpuUtil[c], 1024);
            gUtil[g] += u;
            gRunnable[g] += cpuRunnable[c];
            int nr = cpuNr[c];
            gNr[g] += nr;
            sgOverloaded |= nr > 1; // update_sg_lb_stats(): *sg_overloaded
            if (nr == 0 && cpus[c].curr == null) {
                gIdle[g]++;
            }
            gWeight[g]++;
            load += l;
            util += u;
        }
        totalLoad = load;
        totalCap = 1024L * span.length;
        llcUtil = util;
        return sgOverloaded;
    }

    /**
     * The checks of sched_balance_find_src_group() between the statistics and calculate_imbalance(): false when
     * the domain counts as balanced (the local group is busier, or the busiest has nothing to spare).
     */
    private boolean balanced(int local, IdleType idle, int imb, boolean preferSibling) {
        long localAvg = avgLoad(local);
        long busiestAvg = avgLoad(busiest);
        long sdsAvg = totalLoad * 1024 / totalCap;
        if (gType[local] > gType[busiest]) {
            return false;
        }
        if (gType[local] == OVERLOADED) {
            if (localAvg >= busiestAvg || localAvg >= sdsAvg || 100 * busiestAvg <= (long) imb * localAvg) {
                return false;
            }
        }
        boolean force = preferSibling && gType[local] == HAS_SPARE && gNr[busiest] > gNr[local] + 1;
        if (!force && gType[busiest] != OVERLOADED) {
            if (idle == IdleType.CPU_NOT_IDLE) {
                return false;
            }
            if (gWeight[busiest] > 1 && gIdle[local] <= gIdle[busiest] + 1) {
                return false;
            }
            if (gNr[busiest] == 1) {
                return false;
            }
        }
        return true;
    }

    private long avgLoad(int g) {
        return gLoad[g] * 1024 / (1024L * gWeight[g]);
    }

    /** calculate_imbalance(): what to move and how much; false when nothing is to move. */
    private boolean calculateImbalance(int local, DomainLevel level, IdleType idle, boolean preferSibling) {
        if (gType[local] == HAS_SPARE) {
            if (gType[busiest] == OVERLOADED && !level.shareLlc()) {
                type = MigrationType.UTIL;
                imbalance = Math.max(1024L * gWeight[local], gUtil[local]) - gUtil[local];
                if (idle != IdleType.CPU_NOT_IDLE && imbalance == 0) {
                    type = MigrationType.TASK;
                    imbalance = 1;
                }
            } else if (gWeight[busiest] == 1 || preferSibling) {
                type = MigrationType.TASK;
                imbalance = Math.max(0, gNr[busiest] - gNr[local]) >> 1;
            } else {
                type = MigrationType.TASK;
                imbalance = Math.max(0, gIdle[local] - gIdle[busiest]) >> 1;
            }
        } else {
            long localAvg = avgLoad(local);
            long busiestAvg = avgLoad(busiest);
            long sdsAvg = totalLoad * 1024 / totalCap;
            if (gType[local] < OVERLOADED) {
                if (localAvg >= busiestAvg || localAvg >= sdsAvg) {
                    return false;
                }
            }
            type = MigrationType.LOAD;
            imbalance = Math.min((busiestAvg - sdsAvg) * 1024L * gWeight[busiest],
                    (sdsAvg - localAvg) * 1024L * gWeight[local]) / 1024;
        }
        return imbalance > 0;
    }

    /** group_classify() (no misfit, asym or imbalanced groups): the {@link GroupType}'s ordinal. */
    private int groupClassify(int g, int imb) {
        long cap = 1024L * gWeight[g];
        if (gNr[g] > gWeight[g] && (cap * 100 < gUtil[g] * imb || cap * imb < gRunnable[g] * 100)) {
            return OVERLOADED;
        }
        boolean hasCapacity = gNr[g] < gWeight[g]
                || (cap * imb >= gRunnable[g] * 100 && cap * 100 > gUtil[g] * imb);
        return hasCapacity ? HAS_SPARE : FULLY_BUSY;
    }

    /** update_sd_pick_busiest() for two candidate groups: whether g is busier than {@code than}. */
    private boolean updateSdPickBusiest(int g, int than) {
        if (gType[g] != gType[than]) {
            return gType[g] > gType[than];
        }
        if (gType[g] == HAS_SPARE) {
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
        shared.nrIdleScan[topo.llcOf(cpu)] = (int) (y * weight / 1024);
    }
}
