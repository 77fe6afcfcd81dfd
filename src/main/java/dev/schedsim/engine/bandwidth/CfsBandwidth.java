package dev.schedsim.engine.bandwidth;

import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.TaskGroup;

/**
 * A {@code struct cfs_bandwidth} (kernel/sched/sched.h): the group's global pool, its period and slack timers
 * and its cpu.stat counters. The global pool and its timers are {@link BandwidthPool}'s, the throttled list and
 * the throttle counters {@link Throttle}'s.
 */
public final class CfsBandwidth {
    public final TaskGroup tg;
    public long quota;
    public long period;
    public long burst;
    /** The global pool left in this period. */
    public long runtime;
    public long runtimeSnap;
    public boolean idle;
    public boolean periodActive;
    public boolean slackStarted;
    /** The period hrtimer's expiry (kept while inactive: hrtimer_forward_now keeps the phase). */
    public long periodExpires;
    public final int periodSlot;
    public final int slackSlot;
    /** throttled_cfs_rq, FIFO (list_add_tail on throttle). */
    public CfsRq[] throttled = new CfsRq[4];
    public int nThrottled;
    /** SLICE_EXPIRATION (4.18): runtime_expires and expires_seq of the pool. */
    public long runtimeExpires;
    public long expiresSeq;

    public long nrPeriods;
    public long nrThrottled;
    public long throttledTime;
    public long nrBurst;
    public long burstTime;

    CfsBandwidth(TaskGroup tg, long quota, long period, long burst, int periodSlot, int slackSlot) {
        this.tg = tg;
        this.quota = quota;
        this.period = period;
        this.burst = burst;
        this.periodSlot = periodSlot;
        this.slackSlot = slackSlot;
    }

    public void addThrottled(CfsRq q) {
        if (nThrottled == throttled.length) {
            throttled = java.util.Arrays.copyOf(throttled, nThrottled * 2);
        }
        throttled[nThrottled++] = q;
        q.onThrottledList = true;
    }

    public void removeThrottled(CfsRq q) {
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
