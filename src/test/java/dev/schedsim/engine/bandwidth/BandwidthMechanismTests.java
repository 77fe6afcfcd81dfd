package dev.schedsim.engine.bandwidth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.Specs;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.core.Simulation;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One test per bandwidth-control mechanism (kernel/sched/fair.c, CONFIG_CFS_BANDWIDTH), each naming the kernel
 * function it follows.
 * White-box tests drive {@link BandwidthPool} and {@link Throttle} directly on a configured but not yet running simulation
 * (validation-2c, a group /g with a limit, nothing running); scenario tests run the engine.
 */
class BandwidthMechanismTests {
    static final long MS = 1_000_000;
    static final long SLICE = 5 * MS;
    /** TICK_NSEC at HZ 250. */
    static final long TICK = 4 * MS;

    /** Period timers aligned to multiples of the period (no interleave), so expiries are predictable. */
    private static Simulation configured(long quotaUs, long periodUs, long burstUs, String profile,
                                         Map<Feature, Boolean> overrides) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.BANDWIDTH_TIMER_INTERLEAVE, false);
        f.putAll(overrides);
        EngineSpec s = Specs.spec(Specs.preset("validation-2c"), Specs.kernel(profile, 250, f),
                List.of(new CgroupSpec("/g", quotaUs, periodUs, burstUs, 100)),
                List.of(WorkloadSpec.cpuBound("w", "/g", 1, 0)), 10_000_000);
        Simulation sim = new Simulation(s, 1, Long.MAX_VALUE, RunControl.NONE);
        sim.configureCgroups();
        return sim;
    }

    private static Simulation configured(long quotaUs, long periodUs) {
        return configured(quotaUs, periodUs, 0, "6.18", Map.of());
    }

    /** throttle_cfs_rq() on a queue that overran by {@code remaining} while the pool is empty. */
    private static void throttleWithEmptyPool(Simulation sim, CfsRq q, long remaining) {
        sim.pool().bandwidthOf(q.tg).runtime = 0;
        q.runtimeRemaining = remaining;
        assertTrue(sim.throttle().throttleCfsRq(q));
    }

    /** The period timer fires: its slot leaves the queue, then sched_cfs_period_timer() runs. */
    private static void fire(Simulation sim, CfsBandwidth b) {
        sim.clock().now = sim.timers().queue().when(b.periodSlot);
        sim.timers().cancel(b.periodSlot);
        sim.pool().schedCfsPeriodTimer(b);
    }

    private static Map<Feature, Boolean> with(Feature f, boolean on) {
        Map<Feature, Boolean> m = new EnumMap<>(Feature.class);
        m.put(f, on);
        return m;
    }

    // --- tg_set_cfs_bandwidth() / __refill_cfs_bandwidth_runtime() ---

    @Test
    void configurationRefillsThePoolOnceAndStartsTheTimer() {
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        assertEquals(50 * MS, b.runtime);
        assertTrue(b.periodActive);
        assertTrue(sim.timers().armed(b.periodSlot));
        for (CfsRq q : sim.groups()[1].rq) {
            assertTrue(q.runtimeEnabled);
            assertEquals(0, q.runtimeRemaining);
        }
    }

    @Test
    void aBurstWriteRefillsAgainUpToQuotaPlusBurst() {
        // cpu.max then cpu.max.burst: two tg_set_cfs_bandwidth() calls, each refilling, capped at quota + burst.
        Simulation sim = configured(20_000, 100_000, 20_000, "6.18", Map.of());
        assertEquals(40 * MS, sim.pool().bandwidthOf(sim.groups()[1]).runtime);
        Simulation off = configured(20_000, 100_000, 20_000, "6.18", with(Feature.BANDWIDTH_BURST, false));
        assertEquals(20 * MS, off.pool().bandwidthOf(off.groups()[1]).runtime, "without BANDWIDTH_BURST the burst is ignored");
    }

    // --- __assign_cfs_rq_runtime(): slice pull ---

    @Test
    void aCpuPullsASliceAndOnlyWhatIsLeftWhenThePoolIsShort() {
        Simulation sim = configured(8_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq cpu0 = sim.groups()[1].rq[0];
        CfsRq cpu1 = sim.groups()[1].rq[1];
        assertTrue(sim.pool().assignCfsRqRuntime(cpu0, SLICE));
        assertEquals(SLICE, cpu0.runtimeRemaining);
        assertEquals(3 * MS, b.runtime);
        assertTrue(sim.pool().assignCfsRqRuntime(cpu1, SLICE));
        assertEquals(3 * MS, cpu1.runtimeRemaining, "the pool had only 3 ms left");
        assertEquals(0, b.runtime);
        cpu1.runtimeRemaining = -MS;
        assertFalse(sim.pool().assignCfsRqRuntime(cpu1, SLICE), "an empty pool cannot make the silo positive");
    }

    @Test
    void anAssignmentClearsIdle() {
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        b.idle = true;
        sim.pool().assignCfsRqRuntime(sim.groups()[1].rq[0], SLICE);
        assertFalse(b.idle);
    }

    // --- __account_cfs_rq_runtime(): charging and overrun ---

    @Test
    void chargingGoesNegativeByTheOverrunAndTheDeficitIsRepaidAtDistribution() {
        Simulation sim = configured(5_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq q = sim.groups()[1].rq[0];
        sim.pool().assignCfsRqRuntime(q, SLICE);
        assertEquals(0, b.runtime);
        // A tick charges 4 ms after only 1 ms was left: the silo overruns to -3 ms (no cap at 0).
        q.runtimeRemaining = MS;
        sim.throttle().accountCfsRqRuntime(q, 4 * MS);
        assertEquals(-3 * MS, q.runtimeRemaining);
        assertTrue(q.throttled, "6.18 throttles in __account_cfs_rq_runtime when the pool cannot extend it");
        // The period timer refills and distribute_cfs_runtime() gives -remaining + 1.
        fire(sim, b);
        assertEquals(1, q.runtimeRemaining);
        assertEquals(5 * MS - (3 * MS + 1), b.runtime);
        assertFalse(q.throttled);
    }

    @Test
    void before618AnExhaustedSiloOnlyReschedulesAndPutPrevThrottles() {
        Simulation sim = configured(5_000, 100_000, 0, "6.1", Map.of());
        CfsRq q = sim.groups()[1].rq[0];
        sim.pool().assignCfsRqRuntime(q, SLICE);
        sim.throttle().accountCfsRqRuntime(q, 6 * MS);
        assertFalse(q.throttled, "6.1: throttling waits for put_prev_entity()/pick");
        assertTrue(sim.throttle().checkCfsRqRuntime(q), "check_cfs_rq_runtime() throttles");
        assertTrue(q.throttled);
    }

    // --- throttle_cfs_rq() / unthrottle_cfs_rq(): hierarchy ---

    @Test
    void throttlingWalksTheSubtreeOnThatCpuOnly() {
        EngineSpec s = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.18"),
                List.of(new CgroupSpec("/p", 10_000, 100_000, 0, 100), CgroupSpec.unlimited("/p/c", 100),
                        CgroupSpec.unlimited("/p/c/d", 100)),
                List.of(WorkloadSpec.cpuBound("w", "/p/c/d", 1, 0)), 1_000_000);
        Simulation sim = new Simulation(s, 1, Long.MAX_VALUE, RunControl.NONE);
        sim.configureCgroups();
        TaskGroup p = sim.groups()[1];
        CfsRq q = p.rq[0];
        sim.pool().bandwidthOf(p).runtime = 0;
        q.runtimeRemaining = -1;
        assertTrue(sim.throttle().throttleCfsRq(q));
        assertEquals(1, p.rq[0].throttleCount);
        assertEquals(1, sim.groups()[2].rq[0].throttleCount);
        assertEquals(1, sim.groups()[3].rq[0].throttleCount);
        assertEquals(0, sim.groups()[3].rq[1].throttleCount, "tg_throttle_down walks one CPU");
        assertTrue(q.onThrottledList);
        sim.pool().bandwidthOf(p).runtime = 10 * MS;
        sim.pool().distributeCfsRuntime(sim.pool().bandwidthOf(p));
        assertEquals(0, sim.groups()[3].rq[0].throttleCount);
        assertFalse(q.throttled);
    }

    @Test
    void aParentLimitBindsAChildThatAsksForMore() {
        // cgroup v2: children may ask for more than the parent; they are capped by the parent's pool.
        EngineSpec s = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.18"),
                List.of(new CgroupSpec("/p", 50_000, 100_000, 0, 100), new CgroupSpec("/p/c", 150_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.cpuBound("w", "/p/c", 2, 0)), 2_000_000);
        Report r = Specs.run(s, 7);
        Report.CpuStat p = Specs.cgroup(r, "/p").cpuStat();
        // The pool got one quota at configuration and one per expiry; each CPU may overrun by a tick.
        long quotas = (p.nrPeriods() + 1) * 50_000;
        assertTrue(p.usageUsec() <= quotas + 2 * 4_000, p.usageUsec() + " > " + quotas);
        assertTrue(p.usageUsec() >= p.nrPeriods() * 50_000, p.usageUsec() + " < " + p.nrPeriods() + " quotas");
        assertTrue(Specs.cgroup(r, "/p").cpuStat().nrThrottled() >= 18);
        assertEquals(0, Specs.cgroup(r, "/p/c").cpuStat().nrThrottled(), "the child's own pool never runs dry");
    }

    // --- distribute_cfs_runtime(): FIFO, just enough to reach +1 ns ---

    @Test
    void distributionServesThrottledQueuesInFifoOrderWithJustEnough() {
        Simulation sim = configured(10_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq cpu0 = sim.groups()[1].rq[0];
        CfsRq cpu1 = sim.groups()[1].rq[1];
        b.runtime = 0;
        cpu1.runtimeRemaining = -3 * MS;
        cpu0.runtimeRemaining = -3 * MS;
        sim.throttle().throttleCfsRq(cpu1);
        sim.throttle().throttleCfsRq(cpu0);
        b.runtime = 4 * MS;
        sim.pool().distributeCfsRuntime(b);
        assertFalse(cpu1.throttled, "throttled first, served first");
        assertEquals(1, cpu1.runtimeRemaining, "only enough to become positive, not a slice");
        assertTrue(cpu0.throttled, "the pool ran out before the second");
        assertEquals(0, b.runtime);
    }

    // --- return_cfs_rq_runtime() and the slack timer ---

    @Test
    void anEmptiedQueueReturnsAllButOneMillisecond() {
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq q = sim.groups()[1].rq[0];
        sim.pool().assignCfsRqRuntime(q, SLICE);
        q.runtimeRemaining = 4 * MS;
        long pool = b.runtime;
        sim.pool().returnCfsRqRuntime(q);
        assertEquals(MS, q.runtimeRemaining, "min_cfs_rq_runtime stays local");
        assertEquals(pool + 3 * MS, b.runtime);
    }

    @Test
    void withoutTheFixSlackIsReturnedOnlyWhileTasksRemain() {
        // Seed 001 patch 2: the inverted condition `!cfs_rq->nr_running` returned runtime only when tasks remained.
        Simulation sim = configured(50_000, 100_000, 0, "6.18", with(Feature.RETURN_RUNTIME_FIX, false));
        CfsRq q = sim.groups()[1].rq[0];
        q.runtimeRemaining = 4 * MS;
        sim.pool().returnCfsRqRuntime(q);
        assertEquals(4 * MS, q.runtimeRemaining, "an empty queue keeps its whole silo: runtime is stranded");
    }

    @Test
    void theSlackTimerStartsOnlyWithThrottledQueuesAFullSliceAndNoRefreshWithin7ms() {
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq cpu0 = sim.groups()[1].rq[0];
        CfsRq cpu1 = sim.groups()[1].rq[1];
        throttleWithEmptyPool(sim, cpu1, -MS);
        sim.clock().now = 10 * MS;
        b.runtime = 4 * MS;
        cpu0.runtimeRemaining = 2 * MS;
        sim.pool().returnCfsRqRuntime(cpu0);
        assertEquals(5 * MS, b.runtime);
        assertFalse(b.slackStarted, "a pool of more than one slice is needed");
        cpu0.runtimeRemaining = 4 * MS;
        sim.pool().returnCfsRqRuntime(cpu0);
        assertTrue(b.slackStarted, "pool > slice and a throttled queue: start_cfs_slack_bandwidth()");
        assertEquals(15 * MS, sim.timers().queue().when(b.slackSlot), "5 ms later");
        // An armed slack timer is never pushed later.
        sim.clock().now = 12 * MS;
        cpu0.runtimeRemaining = 4 * MS;
        sim.pool().returnCfsRqRuntime(cpu0);
        assertEquals(15 * MS, sim.timers().queue().when(b.slackSlot));
        // The slack timer distributes.
        sim.clock().now = 15 * MS;
        sim.pool().doSchedCfsSlackTimer(b);
        assertFalse(cpu1.throttled);
        assertFalse(b.slackStarted);
    }

    @Test
    void noSlackTimerWithin7msOfTheRefreshAndNoSlackDistributionWithin2ms() {
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq cpu0 = sim.groups()[1].rq[0];
        CfsRq cpu1 = sim.groups()[1].rq[1];
        throttleWithEmptyPool(sim, cpu1, -MS);
        sim.clock().now = b.periodExpires - 6 * MS;
        b.runtime = 6 * MS;
        cpu0.runtimeRemaining = 4 * MS;
        sim.pool().returnCfsRqRuntime(cpu0);
        assertFalse(b.slackStarted, "the period timer refreshes within 7 ms");
        sim.clock().now = b.periodExpires - MS;
        sim.pool().doSchedCfsSlackTimer(b);
        assertTrue(cpu1.throttled, "do_sched_cfs_slack_timer() leaves it to the refresh within 2 ms");
    }

    // --- sched_cfs_period_timer(): idle deactivation, nr_periods, nr_throttled ---

    @Test
    void theTimerDeactivatesAfterAWholeIdlePeriodAndKeepsItsPhase() {
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        long first = b.periodExpires;
        assertEquals(100 * MS, first, "aligned to a multiple of the period");
        fire(sim, b);
        assertEquals(1, b.nrPeriods);
        assertTrue(b.idle, "nothing throttled: potentially idle next period");
        assertTrue(b.periodActive);
        assertEquals(first + 100 * MS, sim.timers().queue().when(b.periodSlot));
        fire(sim, b);
        assertEquals(2, b.nrPeriods, "the deactivating expiry still counts its period");
        assertFalse(b.periodActive);
        assertFalse(sim.timers().armed(b.periodSlot));
        // Idle for 3.5 more periods: none counted; an assignment restarts the timer on the old phase.
        sim.clock().now = first + 450 * MS;
        sim.pool().assignCfsRqRuntime(sim.groups()[1].rq[0], SLICE);
        assertTrue(b.periodActive);
        assertEquals(first + 500 * MS, b.periodExpires);
        fire(sim, b);
        assertEquals(3, b.nrPeriods, "periods while the timer was off are not counted");
    }

    @Test
    void nrThrottledCountsExpiriesThatFindAThrottledQueueNotThrottleEvents() {
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq cpu0 = sim.groups()[1].rq[0];
        for (int i = 0; i < 3; i++) {
            throttleWithEmptyPool(sim, cpu0, -MS);
            b.runtime = 10 * MS;
            sim.pool().distributeCfsRuntime(b);
        }
        assertEquals(0, b.nrThrottled, "three throttles inside a period, none at an expiry");
        throttleWithEmptyPool(sim, cpu0, -MS);
        fire(sim, b);
        assertEquals(1, b.nrThrottled);
        assertEquals(1, b.nrPeriods);
    }

    // --- throttled_time: at unthrottle, summed over CPUs ---

    @Test
    void throttledTimeIsSummedOverCpus() {
        // Two CPU-bound threads, one per CPU, limited to one CPU: each CPU runs ~50 ms and waits ~50 ms per
        // period, so throttled_usec grows by about 2 × 50 ms per period — more than the wall time it spans.
        EngineSpec s = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.18"),
                List.of(new CgroupSpec("/g", 100_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.cpuBound("w", "/g", 2, 0)), 2_000_000);
        Report.CpuStat st = Specs.cgroup(Specs.run(s, 3), "/g").cpuStat();
        double perThrottledPeriod = st.throttledUsec() / (double) st.nrThrottled();
        assertEquals(100_000, perThrottledPeriod, 15_000, "≈ 2 CPUs × (period − quota / 2)");
        assertTrue(st.throttledUsec() > 1_000_000, "more than half the wall time: summed over CPUs");
    }

    @Test
    void the618ClockStartsWhenTheFirstTaskIsParked() {
        // record_throttle_clock(): a throttled cfs_rq with nothing to park accrues no throttled time.
        Simulation sim = configured(50_000, 100_000);
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq q = sim.groups()[1].rq[0];
        b.runtime = 0;
        q.runtimeRemaining = -MS;
        sim.clock().now = 10 * MS;
        sim.throttle().throttleCfsRq(q);
        assertEquals(0, q.throttledClock);
        sim.clock().now = 20 * MS;
        b.runtime = 10 * MS;
        sim.pool().distributeCfsRuntime(b);
        assertEquals(0, b.throttledTime);

        Simulation old = configured(50_000, 100_000, 0, "6.1", Map.of());
        CfsBandwidth ob = old.pool().bandwidthOf(old.groups()[1]);
        CfsRq oq = old.groups()[1].rq[0];
        ob.runtime = 0;
        oq.runtimeRemaining = -MS;
        old.clock().now = 10 * MS;
        old.throttle().throttleCfsRq(oq);
        old.clock().now = 20 * MS;
        ob.runtime = 10 * MS;
        old.pool().distributeCfsRuntime(ob);
        assertEquals(10 * MS, ob.throttledTime, "6.1 counts from the throttle itself");
    }

    // --- burst: nr_bursts / burst_time at refill ---

    @Test
    void aPeriodThatUsedMoreThanOneQuotaCountsABurstAtTheNextRefill() {
        Simulation sim = configured(20_000, 100_000, 20_000, "6.18", Map.of());
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        assertEquals(40 * MS, b.runtimeSnap);
        b.runtime = 10 * MS; // 30 ms used this period
        sim.pool().refillCfsBandwidthRuntime(b);
        assertEquals(1, b.nrBurst);
        assertEquals(10 * MS, b.burstTime, "the 10 ms beyond one quota");
        assertEquals(30 * MS, b.runtime);
        b.runtime = 25 * MS; // 5 ms used: no burst
        sim.pool().refillCfsBandwidthRuntime(b);
        assertEquals(1, b.nrBurst);
        assertEquals(40 * MS, b.runtime, "capped at quota + burst");
    }

    // --- SLICE_EXPIRATION (4.18): expire_cfs_rq_runtime() ---

    @Test
    void withSliceExpirationLocalRuntimeDiesAtThePeriodEnd() {
        Simulation sim = configured(50_000, 100_000, 0, "4.18", Map.of());
        CfsBandwidth b = sim.pool().bandwidthOf(sim.groups()[1]);
        CfsRq q = sim.groups()[1].rq[0];
        sim.pool().assignCfsRqRuntime(q, SLICE);
        q.runtimeRemaining = 3 * MS;
        fire(sim, b);
        sim.clock().now += 3 * TICK;
        sim.throttle().accountCfsRqRuntime(q, 0);
        assertTrue(q.runtimeRemaining <= SLICE, "the stale 3 ms expired; only a fresh pull remains");
        assertEquals(b.expiresSeq, q.expiresSeq);

        Simulation now = configured(50_000, 100_000, 0, "5.4", Map.of());
        CfsBandwidth nb = now.pool().bandwidthOf(now.groups()[1]);
        CfsRq nq = now.groups()[1].rq[0];
        now.pool().assignCfsRqRuntime(nq, SLICE);
        nq.runtimeRemaining = 3 * MS;
        fire(now, nb);
        now.clock().now += 3 * TICK;
        now.throttle().accountCfsRqRuntime(nq, 0);
        assertEquals(3 * MS, nq.runtimeRemaining, "5.4+: runtime in a silo never expires");
    }

    // --- The whole mechanism, end to end ---

    @Test
    void bothThrottleModelsHoldACpuBoundGroupToItsQuota() {
        for (String profile : new String[] {"6.1", "6.18"}) {
            EngineSpec s = Specs.spec(Specs.preset("desktop-8c-smt2"), Specs.kernel(profile),
                    List.of(new CgroupSpec("/g", 250_000, 100_000, 0, 100)),
                    List.of(WorkloadSpec.cpuBound("w", "/g", 8, 0)), 2_000_000);
            Report.CpuStat st = Specs.cgroup(Specs.run(s, 5), "/g").cpuStat();
            double perPeriod = st.usageUsec() / 20.0;
            // Over many periods: ≤ quota + the runtime left on CPUs (a slice each) + one tick of overrun each.
            assertTrue(perPeriod <= 250_000 + 8 * (5_000 + 4_000) / 20.0 + 250_000 / 20.0, profile + " " + perPeriod);
            assertTrue(perPeriod >= 250_000 * 0.95, profile + " " + perPeriod);
            assertTrue(st.nrThrottled() >= st.nrPeriods() - 2, profile + ": throttled nearly every period");
        }
    }

    @Test
    void withoutTheReturnFixABurstyGroupIsThrottledMore() {
        // Seed 001 companion: threads that run briefly and sleep leave runtime stranded in emptied silos.
        long[] throttled = new long[2];
        for (int i = 0; i < 2; i++) {
            Map<Feature, Boolean> f = with(Feature.RETURN_RUNTIME_FIX, i == 1);
            EngineSpec s = Specs.spec(Specs.preset("desktop-8c-smt2"), Specs.kernel("6.18", 250, f),
                    List.of(new CgroupSpec("/g", 40_000, 100_000, 0, 100)),
                    List.of(WorkloadSpec.periodic("w", "/g", 16, 1_000, 49_000, 30)), 3_000_000);
            for (long seed = 1; seed <= 3; seed++) {
                throttled[i] += Specs.cgroup(Specs.run(s, seed), "/g").cpuStat().nrThrottled();
            }
        }
        assertTrue(throttled[0] > throttled[1], "fix off " + throttled[0] + " vs on " + throttled[1]);
    }

    @Test
    void sliceExpirationThrottlesAManyThreadedMostlyIdleGroupMore() {
        // k8s-slice-expiration: 4.18 expires silo runtime at each period end; 5.4 lets it live.
        long[] throttled = new long[2];
        long[] usage = new long[2];
        for (int i = 0; i < 2; i++) {
            Map<Feature, Boolean> f = with(Feature.SLICE_EXPIRATION, i == 0);
            EngineSpec s = Specs.spec(Specs.preset("desktop-8c-smt2"), Specs.kernel("5.4", 250, f),
                    List.of(new CgroupSpec("/g", 40_000, 100_000, 0, 100)),
                    List.of(WorkloadSpec.periodic("w", "/g", 16, 500, 24_500, 30)), 3_000_000);
            for (long seed = 1; seed <= 3; seed++) {
                Report.CpuStat st = Specs.cgroup(Specs.run(s, seed), "/g").cpuStat();
                throttled[i] += st.nrThrottled();
                usage[i] += st.usageUsec();
            }
        }
        assertTrue(throttled[0] > throttled[1], "expiration on " + throttled[0] + " vs off " + throttled[1]);
        assertTrue(usage[0] <= usage[1] * 1.02, "not because it used more: " + usage[0] + " vs " + usage[1]);
    }

    @Test
    void theStaticKeyRemovesTheHooksCostWhileNoGroupHasAQuota() {
        // Seed 001 patch 1: a pipe ping-pong on one CPU with no quota anywhere pays for the bandwidth hooks
        // unless the jump label patches them out.
        double[] overhead = new double[2];
        double[] throughput = new double[2];
        for (int i = 0; i < 2; i++) {
            Map<Feature, Boolean> f = with(Feature.BANDWIDTH_STATIC_KEY, i == 1);
            WorkloadSpec pingPong = WorkloadSpec.requestResponse("pipe", "/", 1, 2, 2).withCpus(new int[] {0});
            EngineSpec s = Specs.spec(Specs.preset("validation-2c"), Specs.kernel("6.18", 250, f), List.of(),
                    List.of(pingPong), 200_000);
            Report r = Specs.run(s, 1);
            overhead[i] = r.scheduler().overheadPct();
            throughput[i] = r.workloads().get(0).throughputPerSec();
        }
        assertTrue(overhead[1] < overhead[0], "the hooks' cost is gone with the key: " + overhead[1] + " vs "
                + overhead[0]);
        assertTrue(throughput[1] > throughput[0], throughput[1] + " vs " + throughput[0]);
    }

    @Test
    void aQuotaGoneAtARunsEndMakesTheNextWakeupWaitForThePeriod() {
        // Measured (throttled case: 1 ms run, 1 ms sleep, 30 ms of 100 ms): once a period the quota runs out; the
        // kernel finds it at the update_curr() of the sleep (or at a tick), the thread sleeps throttled and its
        // next wakeup waits for the refill: p99 39.2-39.5 ms. An interrupt that delays a run's end is no kernel
        // entry: an update_curr() there would find the quota gone mid-run and park the thread instead.
        EngineSpec spec = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18"),
                List.of(new CgroupSpec("/t", 30_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.periodic("p", "/t", 1, 1000, 1000)), 5_000_000);
        Report.Latency l = Specs.run(spec, 1).workloads().get(0).wakeupLatencyUs();
        assertTrue(l.p99() > 30_000, "one wakeup in about 30 waits for the next period: " + l);
    }
}
