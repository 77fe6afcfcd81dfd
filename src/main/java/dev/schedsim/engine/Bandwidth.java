package dev.schedsim.engine;

/**
 * A {@code struct cfs_bandwidth} (kernel-facts §1.1): the group's global pool, its period and slack timers
 * and its cpu.stat counters. The logic that uses it is in {@link BandwidthControl}.
 */
final class Bandwidth {
    final TaskGroup tg;
    long quota;
    long period;
    long burst;
    /** The global pool left in this period. */
    long runtime;
    long runtimeSnap;
    boolean idle;
    boolean periodActive;
    boolean slackStarted;
    /** The period hrtimer's expiry (kept while inactive: hrtimer_forward_now keeps the phase). */
    long periodExpires;
    final int periodSlot;
    final int slackSlot;
    /** throttled_cfs_rq, FIFO (list_add_tail on throttle). */
    CfsRq[] throttled = new CfsRq[4];
    int nThrottled;
    /** SLICE_EXPIRATION (4.18): runtime_expires and expires_seq of the pool. */
    long runtimeExpires;
    long expiresSeq;

    long nrPeriods;
    long nrThrottled;
    long throttledTime;
    long nrBurst;
    long burstTime;

    Bandwidth(TaskGroup tg, long quota, long period, long burst, int periodSlot, int slackSlot) {
        this.tg = tg;
        this.quota = quota;
        this.period = period;
        this.burst = burst;
        this.periodSlot = periodSlot;
        this.slackSlot = slackSlot;
    }

    void addThrottled(CfsRq q) {
        if (nThrottled == throttled.length) {
            throttled = java.util.Arrays.copyOf(throttled, nThrottled * 2);
        }
        throttled[nThrottled++] = q;
        q.onThrottledList = true;
    }

    void removeThrottled(CfsRq q) {
        for (int i = 0; i < nThrottled; i++) {
            if (throttled[i] == q) {
                System.arraycopy(throttled, i + 1, throttled, i, nThrottled - i - 1);
                throttled[--nThrottled] = null;
                q.onThrottledList = false;
                return;
            }
        }
    }
}
