package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.bench.BenchSpecs;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Same spec + same seed ⇒ identical report, on any machine. The only randomness is
 * the run's seeded generators: the run's own, which with BANDWIDTH_TIMER_INTERLEAVE draws each group's
 * period-timer phase (init_cfs_bandwidth: hrtimer_set_expires(get_random_u32_below(period))), so different seeds
 * move the period boundaries and with them the bandwidth statistics; and the machine noise's (interrupts, timer
 * lateness, background threads), which makes every seed's run differ as real runs do.
 */
class DeterminismTests {
    static final long DURATION_US = 200_000;

    static EngineSpec mixed() {
        EngineSpec spec = BenchSpecs.mixed64(DURATION_US);
        assertTrue(spec.kernel().on(Feature.BANDWIDTH_TIMER_INTERLEAVE), "the mixed spec must interleave timers");
        assertTrue(spec.cgroups().stream().filter(CgroupSpec::limited).count() >= 2, "two limited groups");
        return spec;
    }

    static Map<String, Report.CpuStat> limitedStats(EngineSpec spec, Report r) {
        return r.cgroups().stream().filter(c -> spec.cgroupsByPath().get(c.path()).limited())
                .collect(Collectors.toMap(Report.CgroupReport::path, Report.CgroupReport::cpuStat));
    }

    @Test
    void sameSpecAndSeedGiveAnEqualReport() {
        EngineSpec spec = mixed();
        Report first = Specs.run(spec, 7);
        // Another run in between must not leak state into the next one (no global state).
        Specs.run(BenchSpecs.mixed64(DURATION_US / 2), 8);
        Report second = Specs.run(mixed(), 7);
        assertEquals(first, second);
        // The report is not trivial: work was done and bandwidth control acted.
        assertTrue(first.events() > 1000, "events " + first.events());
        assertTrue(first.workloads().stream().allMatch(w -> w.cpuUsec() > 0));
        assertTrue(limitedStats(spec, first).values().stream().anyMatch(s -> s.nrThrottled() > 0),
                "some limited group was throttled: " + first.cgroups());
    }

    @Test
    void sameSeedGivesAnEqualReportWithJitter() {
        // The periodic jitter also draws from the run's generator.
        EngineSpec spec = Specs.spec(Specs.preset("desktop-8c-smt2"), Specs.kernel("6.18"),
                List.of(new CgroupSpec("/lim", 150_000, 100_000, 20_000, 100)),
                List.of(TestWorkloads.periodic("p", "/lim", 12, 1_500, 2_500, 25, null),
                        WorkloadSpec.requestResponse("rr", "/", 3, 40, 30)),
                300_000);
        assertEquals(Specs.run(spec, 99), Specs.run(spec, 99));
        assertNotEquals(Specs.run(spec, 99), Specs.run(spec, 100), "jitter differs between seeds");
    }

    @Test
    void differentSeedsMoveThePeriodTimerPhase() {
        EngineSpec spec = mixed();
        Map<String, Report.CpuStat> a = limitedStats(spec, Specs.run(spec, 1));
        Map<String, Report.CpuStat> b = limitedStats(spec, Specs.run(spec, 2));
        // The phase of each period timer is drawn from the seed, so throttling starts and ends at other
        // moments: some cpu.stat value of a limited group differs.
        assertNotEquals(a, b, "cpu.stat of the limited groups: seed 1 " + a + ", seed 2 " + b);
    }

    @Test
    void withoutInterleaveTheTimersAreAlignedWhateverTheSeed() {
        // Before the interleave commit, period timers start aligned to multiples of the period, so a
        // bandwidth-only spec without jitter draws nothing random: every seed gives the same cpu.stat.
        EngineSpec base = mixed();
        // (on a machine without noise and without NI_RANDOM's die: both draw from the seed too)
        EngineSpec spec = new EngineSpec(Specs.quiet(base.topology()), Specs.kernel("6.18", 250,
                Map.of(Feature.BANDWIDTH_TIMER_INTERLEAVE, false, Feature.NI_RANDOM, false)), base.cgroups(),
                base.workloads(),
                base.durationUs(), false);
        assertEquals(limitedStats(spec, Specs.run(spec, 1)), limitedStats(spec, Specs.run(spec, 2)));
    }

    @Test
    void machineNoiseDiffersBetweenSeedsAndRepeatsForOne() {
        // A periodic thread and two busy ones on the validation machine: nothing in the spec is random, so only
        // the machine's interrupts, timer lateness and background threads can tell two seeds apart.
        EngineSpec spec = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.periodic("p", "/", 1, 100, 900), WorkloadSpec.cpuBound("b", "/", 2, 0)),
                500_000);
        Report one = Specs.run(spec, 5);
        assertEquals(one, Specs.run(spec, 5));
        Report other = Specs.run(spec, 6);
        assertNotEquals(one.workloads().get(0).wakeupLatencyUs(), other.workloads().get(0).wakeupLatencyUs(),
                "the periodic thread's wakeup latency differs between seeds");
        EngineSpec quiet = new EngineSpec(Specs.quiet(spec.topology()), spec.kernel(), spec.cgroups(),
                spec.workloads(), spec.durationUs(), false);
        assertEquals(Specs.run(quiet, 5), Specs.run(quiet, 6), "without noise the seed changes nothing here");
    }
}
