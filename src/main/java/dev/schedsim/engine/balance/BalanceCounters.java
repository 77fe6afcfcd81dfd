package dev.schedsim.engine.balance;

/** What the report says of load balancing (the kernel's schedstats for it, summed over CPUs and domains). */
public final class BalanceCounters {
    /** Periodic balance attempts (sched_balance_rq, not newly idle). */
    public long loadBalances;
    /** Newidle balances that got past the avg_idle gate. */
    public long newidleBalances;
    /** Tasks moved by load balancing (active balance included). */
    public long tasksMoved;
    /** Of those, tasks pulled by newidle balance (schedstat lb_gained[CPU_NEWLY_IDLE], over all domains). */
    public long newidlePulls;
    /** Active balances (the stopper pushed a running task). */
    public long activeBalances;
    /** Compare-and-swaps on sched_balance_running, and the CPU time they took. */
    public long serializeAttempts;
    public long serializeNs;
    /** sd->max_newidle_lb_cost per domain level, sampled at each newidle balance: min, max, sum, samples. */
    public final long[] newidleCostMin;
    public final long[] newidleCostMax;
    public final double[] newidleCostSum;
    public final long[] newidleCostSamples;

    BalanceCounters(int levels) {
        newidleCostMin = new long[levels];
        newidleCostMax = new long[levels];
        newidleCostSum = new double[levels];
        newidleCostSamples = new long[levels];
        java.util.Arrays.fill(newidleCostMin, Long.MAX_VALUE);
    }

    /** The report starts here (after warm-up runs). */
    public void reset() {
        loadBalances = 0;
        newidleBalances = 0;
        tasksMoved = 0;
        newidlePulls = 0;
        activeBalances = 0;
        serializeAttempts = 0;
        serializeNs = 0;
        java.util.Arrays.fill(newidleCostMin, Long.MAX_VALUE);
        java.util.Arrays.fill(newidleCostMax, 0);
        java.util.Arrays.fill(newidleCostSum, 0);
        java.util.Arrays.fill(newidleCostSamples, 0);
    }

    void sampleNewidleCost(int l, long v) {
        newidleCostMin[l] = Math.min(newidleCostMin[l], v);
        newidleCostMax[l] = Math.max(newidleCostMax[l], v);
        newidleCostSum[l] += v;
        newidleCostSamples[l]++;
    }
}
