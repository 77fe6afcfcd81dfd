package dev.schedsim.engine.bandwidth;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.fair.UpdateCurr;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.stats.Recorder;
import java.util.SplittableRandom;

/**
 * The global side of CFS bandwidth control (kernel/sched/fair.c, from tg_set_cfs_bandwidth() to sched_cfs_period_timer()): a group's pool, refilled by
 * the period timer and handed out in slices to the CPUs' cfs_rqs; FIFO distribution to throttled cfs_rqs; slack
 * returned by emptied cfs_rqs and redistributed by the slack timer; burst; the 4.18–5.3 slice expiration. Owns
 * each {@link CfsBandwidth}'s pool, timers and period counters.
 *
 * <p><b>Limitations:</b> distribute_cfs_runtime() unthrottles remote CPUs synchronously (6.2+ does it by IPI a
 * few µs later); the period-timer overrun loop that doubles a too-short period never triggers, because callbacks
 * take no simulated time.
 */
public final class BandwidthPool {
    /** min_cfs_rq_runtime: a cfs_rq keeps 1 ms when it returns slack. */
    public static final long MIN_CFS_RQ_RUNTIME = 1_000_000;
    /** min_bandwidth_expiration: no slack distribution within 2 ms of a refresh. */
    public static final long MIN_BANDWIDTH_EXPIRATION = 2_000_000;
    /** cfs_bandwidth_slack_period: 5 ms. */
    public static final long CFS_BANDWIDTH_SLACK_PERIOD = 5_000_000;

    /** Counts of periods and throttled periods per time-series bucket (cpu.stat over time). */
    private final Recorder recorder;
    private final SimClock clock;
    private final Timers timers;
    private final SplittableRandom random;
    private final BandwidthHooks hooks;
    private final Cpu[] cpus;
    /** sysctl_sched_cfs_bandwidth_slice, ns. */
    final long slice;
    private final boolean taskThrottle; // TASK_BASED_THROTTLE
    private final boolean expiration; // SLICE_EXPIRATION
    private final boolean burstOn; // BANDWIDTH_BURST
    private final boolean returnFix; // RETURN_RUNTIME_FIX
    private final boolean interleave; // BANDWIDTH_TIMER_INTERLEAVE
    private Throttle throttle;
    private UpdateCurr updateCurr;
    private CfsRq[] scratch = new CfsRq[8];
    /** Each task group's struct cfs_bandwidth by its index (null: unlimited). */
    private CfsBandwidth[] bandwidth = new CfsBandwidth[0];

    public BandwidthPool(KernelConfig kernel, SimClock clock, Timers timers, SplittableRandom random,
                         BandwidthHooks hooks, Cpu[] cpus, Recorder recorder) {
        this.recorder = recorder;
        this.clock = clock;
        this.timers = timers;
        this.random = random;
        this.hooks = hooks;
        this.cpus = cpus;
        this.slice = kernel.bandwidthSliceUs() * 1000;
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
        this.expiration = kernel.on(Feature.SLICE_EXPIRATION);
        this.burstOn = kernel.on(Feature.BANDWIDTH_BURST);
        this.returnFix = kernel.on(Feature.RETURN_RUNTIME_FIX);
        this.interleave = kernel.on(Feature.BANDWIDTH_TIMER_INTERLEAVE);
    }

    /** The group's bandwidth pool (tg->cfs_bandwidth), or null for an unlimited group. */
    public CfsBandwidth bandwidthOf(TaskGroup g) {
        return g.index < bandwidth.length ? bandwidth[g.index] : null;
    }

    /** (cycle: distribution unthrottles, and 6.18 brings curr up to date first) */
    public void wire(Throttle throttle, UpdateCurr updateCurr) {
        this.throttle = throttle;
        this.updateCurr = updateCurr;
    }

    /**
     * init_cfs_bandwidth() + tg_set_cfs_bandwidth() for the write of cpu.max and then, when a burst is set, of
     * cpu.max.burst (two files, two writes, as a user, systemd or a container runtime does it). Each write refills
     * the pool once (capped at quota + burst), so a burst starts the group with quota + burst, as on the real
     * kernel; the period timer starts; every CPU gets runtime accounting with nothing assigned. With
     * BANDWIDTH_TIMER_INTERLEAVE the timer's first expiry is a random point in [0, period) (the 2023 interleave
     * commit), otherwise 0, so expiries are aligned to multiples of the period.
     */
    public void tgSetCfsBandwidth(TaskGroup g, CgroupSpec c) {
        long burst = burstOn ? c.burstUs() * 1000 : 0; // BANDWIDTH_BURST
        CfsBandwidth b = new CfsBandwidth(g, c.quotaUs() * 1000, c.periodUs() * 1000, 0, timers.period(g.index),
                timers.slack(g.index));
        if (g.index >= bandwidth.length) {
            bandwidth = java.util.Arrays.copyOf(bandwidth, g.index + 1);
        }
        bandwidth[g.index] = b;
        hooks.usageInc();
        b.periodExpires = interleave ? random.nextLong(b.period) : 0; // BANDWIDTH_TIMER_INTERLEAVE
        setCfsBandwidth(b);
        if (burst > 0) {
            b.burst = burst;
            setCfsBandwidth(b);
        }
    }

    /** tg_set_cfs_bandwidth() after its checks: refill, start the timer, reset every CPU's runtime. */
    private void setCfsBandwidth(CfsBandwidth b) {
        refillCfsBandwidthRuntime(b);
        startCfsBandwidth(b);
        for (CfsRq q : b.tg.rq) {
            q.runtimeEnabled = true;
            q.runtimeRemaining = 0;
        }
    }

    /** __refill_cfs_bandwidth_runtime(). */
    void refillCfsBandwidthRuntime(CfsBandwidth b) {
        b.runtime += b.quota;
        long overrun = b.runtimeSnap - b.runtime;
        if (overrun > 0) {
            b.burstTime += overrun;
            b.nrBurst++;
        }
        b.runtime = Math.min(b.runtime, b.quota + b.burst);
        b.runtimeSnap = b.runtime;
        if (expiration) { // SLICE_EXPIRATION
            b.runtimeExpires = clock.now + b.period;
            b.expiresSeq++;
        }
    }

    /** hrtimer_forward_now(): move the expiry to the first period boundary after now; the periods crossed. */
    private long hrtimerForwardNow(CfsBandwidth b) {
        long delta = clock.now - b.periodExpires;
        if (delta < 0) {
            return 0;
        }
        long orun = delta / b.period + 1;
        b.periodExpires += orun * b.period;
        return orun;
    }

    /** start_cfs_bandwidth(). */
    void startCfsBandwidth(CfsBandwidth b) {
        if (b.periodActive) {
            return;
        }
        b.periodActive = true;
        hrtimerForwardNow(b);
        timers.arm(b.periodSlot, b.periodExpires, Timers.PRIO_PERIOD);
    }

    /** sched_cfs_period_timer(). */
    public void schedCfsPeriodTimer(CfsBandwidth b) {
        boolean idle = false;
        while (true) {
            long overrun = hrtimerForwardNow(b);
            if (overrun == 0) {
                break;
            }
            idle = doSchedCfsPeriodTimer(b, overrun);
        }
        if (idle) {
            b.periodActive = false;
        } else {
            timers.arm(b.periodSlot, b.periodExpires, Timers.PRIO_PERIOD);
        }
    }

    /** do_sched_cfs_period_timer(), in the kernel's order. */
    private boolean doSchedCfsPeriodTimer(CfsBandwidth b, long overrun) {
        boolean throttled = b.nThrottled > 0;
        b.nrPeriods += overrun;
        recorder.periods(b.tg, clock.now, overrun, throttled);
        refillCfsBandwidthRuntime(b);
        if (b.idle && !throttled) {
            return true;
        }
        if (!throttled) {
            b.idle = true;
            return false;
        }
        b.nrThrottled += overrun;
        while (throttled && b.runtime > 0) {
            int before = b.nThrottled;
            long pool = b.runtime;
            throttled = distributeCfsRuntime(b);
            if (b.nThrottled == before && b.runtime == pool) {
                break;
            }
        }
        b.idle = false;
        return false;
    }

    /**
     * distribute_cfs_runtime(): walk the throttled list in FIFO order giving each cfs_rq just enough to reach
     * +1 ns, unthrottling it; stop when the pool is empty. Returns whether cfs_rqs remain throttled.
     */
    boolean distributeCfsRuntime(CfsBandwidth b) {
        int n = b.nThrottled;
        if (scratch.length < n) {
            scratch = new CfsRq[n * 2];
        }
        System.arraycopy(b.throttled, 0, scratch, 0, n);
        boolean stillThrottled = false;
        for (int i = 0; i < n; i++) {
            CfsRq q = scratch[i];
            scratch[i] = null;
            if (!q.throttled) {
                continue;
            }
            if (taskThrottle && inHierarchy(cpus[q.cpu].curr, q)) { // TASK_BASED_THROTTLE
                updateCurr.updateCurr(cpus[q.cpu]);
            }
            long runtime = Math.min(-q.runtimeRemaining + 1, b.runtime);
            b.runtime -= runtime;
            q.runtimeRemaining += runtime;
            if (expiration) { // SLICE_EXPIRATION
                q.runtimeExpires = b.runtimeExpires;
                q.expiresSeq = b.expiresSeq;
            }
            if (q.runtimeRemaining > 0) {
                throttle.unthrottleCfsRq(q);
            } else if (taskThrottle) { // TASK_BASED_THROTTLE
                stillThrottled = true;
                clearFrom(i + 1, n);
                break;
            }
            if (b.runtime == 0) {
                clearFrom(i + 1, n);
                break;
            }
        }
        return taskThrottle ? stillThrottled || b.nThrottled > 0 : b.nThrottled > 0;
    }

    private void clearFrom(int from, int n) {
        for (int k = from; k < n; k++) {
            scratch[k] = null;
        }
    }

    /** Whether task t (may be null) runs in q's hierarchy. */
    static boolean inHierarchy(Task t, CfsRq q) {
        if (t == null) {
            return false;
        }
        for (CfsRq r = t.se.cfsRq; r != null; r = r.parent) {
            if (r == q) {
                return true;
            }
        }
        return false;
    }

    /** __assign_cfs_rq_runtime(): pull up to target − remaining from the pool; starts the period timer. */
    boolean assignCfsRqRuntime(CfsRq q, long target) {
        CfsBandwidth b = bandwidthOf(q.tg);
        long minAmount = target - q.runtimeRemaining;
        if (minAmount <= 0) {
            return q.runtimeRemaining > 0;
        }
        long amount = 0;
        startCfsBandwidth(b);
        if (b.runtime > 0) {
            amount = Math.min(b.runtime, minAmount);
            b.runtime -= amount;
            b.idle = false;
        }
        q.runtimeRemaining += amount;
        if (expiration && q.expiresSeq != b.expiresSeq) { // SLICE_EXPIRATION
            q.expiresSeq = b.expiresSeq;
            q.runtimeExpires = b.runtimeExpires;
        }
        return q.runtimeRemaining > 0;
    }

    /**
     * return_cfs_rq_runtime() from dequeue_entity(): when the cfs_rq became empty, give back all but 1 ms; with
     * RETURN_RUNTIME_FIX off, the inverted condition of seed 001 patch 2 returns only while tasks remain.
     */
    public void returnCfsRqRuntime(CfsRq q) {
        if (!hooks.used() || !q.runtimeEnabled) {
            return;
        }
        if (returnFix ? q.nr != 0 : q.nr == 0) { // RETURN_RUNTIME_FIX
            return;
        }
        CfsBandwidth b = bandwidthOf(q.tg);
        long slack = q.runtimeRemaining - MIN_CFS_RQ_RUNTIME;
        if (slack <= 0) {
            return;
        }
        if (!expiration || q.runtimeExpires == b.runtimeExpires) { // SLICE_EXPIRATION
            b.runtime += slack;
            if (b.runtime > slice && b.nThrottled > 0) {
                startCfsSlackBandwidth(b);
            }
        }
        q.runtimeRemaining -= slack;
    }

    /** runtime_refresh_within(): the period timer expires within min_expire. */
    private boolean runtimeRefreshWithin(CfsBandwidth b, long minExpire) {
        return b.periodExpires - clock.now < minExpire;
    }

    /** start_cfs_slack_bandwidth(). */
    private void startCfsSlackBandwidth(CfsBandwidth b) {
        if (runtimeRefreshWithin(b, CFS_BANDWIDTH_SLACK_PERIOD + MIN_BANDWIDTH_EXPIRATION)) {
            return;
        }
        if (b.slackStarted) {
            return;
        }
        b.slackStarted = true;
        timers.arm(b.slackSlot, clock.now + CFS_BANDWIDTH_SLACK_PERIOD, Timers.PRIO_SLACK);
    }

    /** do_sched_cfs_slack_timer(). */
    public void doSchedCfsSlackTimer(CfsBandwidth b) {
        b.slackStarted = false;
        if (runtimeRefreshWithin(b, MIN_BANDWIDTH_EXPIRATION)) {
            return;
        }
        if (b.runtime <= slice) {
            return;
        }
        distributeCfsRuntime(b);
    }
}
