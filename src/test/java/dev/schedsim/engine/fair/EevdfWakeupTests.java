package dev.schedsim.engine.fair;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.Specs;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EEVDF's wakeup path as 6.18 has it (issue 18), on the validation machine with its noise: a periodic thread
 * (100 µs every 900 µs) shares one CPU with an always-busy one. enqueue_entity() brings curr up to date before
 * place_entity(), so the woken thread competes with its real lag: mostly it preempts, but when its lag runs out it
 * waits for the busy thread's protected slice (RUN_TO_PARITY) until a tick ends it — on the real machine 1 wakeup
 * in 50-150 waits 2-4 ms. DELAY_DEQUEUE keeps a sleeper that is not eligible queued; woken, it is requeued where it
 * is (ttwu_runnable()), against curr's vruntime as of its last update.
 */
class EevdfWakeupTests {
    static final long DURATION_US = 2_000_000;

    static Report run(int periodicNice, int busyNice, Map<Feature, Boolean> features, boolean pinned) {
        int[] cpu0 = {0};
        WorkloadSpec p = WorkloadSpec.periodic("p", "/", 1, 100, 900).withNice(periodicNice);
        WorkloadSpec b = WorkloadSpec.cpuBound("b", "/", 1, 0).withNice(busyNice).withCpus(cpu0);
        EngineSpec spec = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18", 250, features), List.of(),
                List.of(pinned ? p.withCpus(cpu0) : p, b), DURATION_US);
        return Specs.run(spec, 1);
    }

    @Test
    void aWokenThreadMostlyPreemptsButSometimesWaitsOutTheProtectedSlice() {
        // Measured: p90 4-8 µs, p99 2-3.5 ms, max 4.1-5.2 ms (busy2-pinned).
        Report.Latency l = run(0, 0, Map.of(), true).workloads().get(0).wakeupLatencyUs();
        assertTrue(l.p90() < 50, "most wakeups preempt at once: p90 " + l.p90());
        assertTrue(l.p99() > 1000 && l.max() < 6000, "some wait for the busy thread's slice to end at a tick: p99 "
                + l.p99() + ", max " + l.max());
    }

    @Test
    void aNiceSleeperAgainstAHogWaitsOnceInTensOfCycles() {
        // Measured: a nice-5 periodic thread against a nice-0 hog waits once every 23-38 cycles (p90 4.1 µs,
        // p99 3.9 ms); a nice-0 one against a nice-5 hog almost never (p99 11 µs).
        Report.Latency niceSleeper = run(5, 0, Map.of(), true).workloads().get(0).wakeupLatencyUs();
        Report.Latency niceHog = run(0, 5, Map.of(), true).workloads().get(0).wakeupLatencyUs();
        assertTrue(niceSleeper.p90() < 50 && niceSleeper.p99() > 1000,
                "between 1 % and 10 % of the nice-5 sleeper's wakeups wait: " + niceSleeper);
        assertTrue(niceHog.p99() < 50, "the nice-0 sleeper preempts the nice-5 hog: " + niceHog);
        // Without DELAY_DEQUEUE the nice-5 sleeper leaves with its negative lag and is placed with it, so it
        // waits for the hog's slice every few cycles.
        Report.Latency noDelay = run(5, 0, Map.of(Feature.DELAY_DEQUEUE, false), true).workloads().get(0)
                .wakeupLatencyUs();
        assertTrue(noDelay.p90() > 1000, "without DELAY_DEQUEUE more than 10 % wait: " + noDelay);
    }

    @Test
    void aWokenGroupPreemptsAnotherGroupsHogs() {
        // Measured (the cgroups case: a periodic thread in /a, two hogs in /b, two CPUs): p99 14.4-15.6 µs. A group
        // entity's slice is the smallest slice queued below it (enqueue_task_fair(): se->slice =
        // cfs_rq_min_slice()); with a zero slice the running group's deadline would be its vruntime, always the
        // earliest, and the woken group would wait out the hog's slice about one wakeup in a hundred.
        EngineSpec spec = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18"),
                List.of(CgroupSpec.unlimited("/a", 100), CgroupSpec.unlimited("/b", 100)),
                List.of(WorkloadSpec.periodic("p", "/a", 1, 100, 900), WorkloadSpec.cpuBound("b", "/b", 2, 0)),
                DURATION_US);
        Report.Latency l = Specs.run(spec, 1).workloads().get(0).wakeupLatencyUs();
        assertTrue(l.p99() < 50, "the woken group preempts: " + l);
    }

    @Test
    void anUnprotectedCurrIsRescheduledAtTheTick() {
        // PROTECT_SLICE_RESCHED (6.17): update_curr() reschedules once curr's protected slice is over and others
        // wait; a task picked again without a switch has no protection. With a 1 ms tick under the 1.4 ms slice,
        // three hogs and a periodic thread on two CPUs switch more for it (at HZ 250 every tick already ends the
        // slice).
        long on = hogSwitches(Map.of());
        long off = hogSwitches(Map.of(Feature.PROTECT_SLICE_RESCHED, false));
        assertTrue(on > off, "switches " + on + " with PROTECT_SLICE_RESCHED, " + off + " without");
    }

    static long hogSwitches(Map<Feature, Boolean> f) {
        EngineSpec spec = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18", 1000, f), List.of(),
                List.of(WorkloadSpec.cpuBound("b", "/", 3, 0), WorkloadSpec.periodic("p", "/", 1, 100, 900)),
                DURATION_US);
        return Specs.run(spec, 1).workloads().get(0).contextSwitches();
    }
}
