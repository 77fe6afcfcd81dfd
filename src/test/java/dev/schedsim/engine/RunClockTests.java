package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.RunClock;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a run's length measures (RunClock) and who pays for the interrupts (IRQ_TIME_ACCOUNTING, RqClock): a work
 * run has the interrupts that come during it on top of its length, a run on the thread's CPU clock has them inside;
 * with IRQ_TIME_ACCOUNTING nobody's task clock has them. A thread-clock run also enters the kernel at every clock
 * read, so its quota runs out to the microsecond rather than at the next tick.
 */
class RunClockTests {
    /** Interrupts only: 2 000 a second of 10 µs on a busy CPU (2 % of its time), nothing else. */
    static final MachineNoise IRQS = new MachineNoise(2_000, 10_000, 0, 0, List.of());
    static final long SECONDS = 2;

    private static TopologySpec machine(MachineNoise noise) {
        TopologySpec t = Specs.preset("validation-2c");
        return t.withHardware(t.hardware().withNoise(noise));
    }

    /** One periodic thread, 1 ms run / 4 ms sleep, on CPU 0: its CPU time a cycle, µs. */
    private static double cpuPerCycle(MachineNoise noise, RunClock clock, Map<Feature, Boolean> features) {
        WorkloadSpec w = WorkloadSpec.periodic("p", "/", 1, 1000, 4000).withCpus(new int[] {0}).withRunClock(clock);
        Report r = Specs.run(Specs.spec(machine(noise), Specs.kernel("6.18", 250, features), List.of(), List.of(w),
                SECONDS * 1_000_000), 1);
        Report.WorkloadReport p = r.workloads().get(0);
        return p.cpuUsec() / (p.throughputPerSec() * SECONDS);
    }

    @Test
    void interruptsComeOnTopOfWorkAndInsideAThreadClockRun() {
        double quiet = cpuPerCycle(MachineNoise.NONE, RunClock.WORK, Map.of());
        double work = cpuPerCycle(IRQS, RunClock.WORK, Map.of());
        double thread = cpuPerCycle(IRQS, RunClock.THREAD_CPU, Map.of());
        // 2 % of a 1 ms run is 20 µs of interrupts: on top of the work, inside the thread's CPU clock
        assertEquals(quiet + 20, work, 4, "a work run's CPU a cycle with the interrupts, µs (without: " + quiet + ")");
        assertEquals(quiet, thread, 2, "a thread-clock run's CPU a cycle with the interrupts, µs");
        assertEquals(quiet, cpuPerCycle(MachineNoise.NONE, RunClock.THREAD_CPU, Map.of()), 1,
                "without interrupts the two clocks agree");
    }

    @Test
    void irqTimeAccountingTakesTheInterruptsOutOfTheTaskClock() {
        double quiet = cpuPerCycle(MachineNoise.NONE, RunClock.WORK, Map.of());
        Map<Feature, Boolean> irqTime = Map.of(Feature.IRQ_TIME_ACCOUNTING, true);
        // the work waits for them, but nobody is charged for them
        assertEquals(quiet, cpuPerCycle(IRQS, RunClock.WORK, irqTime), 2, "a work run's CPU a cycle, µs");
        assertEquals(quiet, cpuPerCycle(IRQS, RunClock.THREAD_CPU, irqTime), 2, "a thread-clock run's, µs");
    }

    /**
     * One always-running thread in a group of 30 % of a CPU, for the first 33 ms (the period timer not interleaved:
     * its first refill at 100 ms): its CPU time, µs.
     */
    private static long firstPeriodUsageUs(RunClock clock) {
        WorkloadSpec w = WorkloadSpec.periodic("p", "/g", 1, 100_000, 0).withCpus(new int[] {0}).withRunClock(clock);
        Report r = Specs.run(Specs.spec(Specs.preset("validation-2c"),
                Specs.kernel("6.18", 250, Map.of(Feature.BANDWIDTH_TIMER_INTERLEAVE, false)),
                List.of(new CgroupSpec("/g", 30_000, 100_000, 0, 100)), List.of(w), 33_000), 1);
        return r.workloads().get(0).cpuUsec();
    }

    @Test
    void aThreadClockRunIsThrottledWhenItsQuotaRunsOut() {
        // A run that computes meets update_curr() at the tick only: it runs on past its 30 ms to the next tick (at
        // 32 ms); one that reads its CPU clock is throttled at 30 ms (a debt is paid back the next period either
        // way, so over many periods both are throttled as long)
        assertEquals(30_000, firstPeriodUsageUs(RunClock.THREAD_CPU), 100, "CPU time by 33 ms, µs");
        assertTrue(firstPeriodUsageUs(RunClock.WORK) > 31_000, "the work run overruns to the tick: "
                + firstPeriodUsageUs(RunClock.WORK) + " µs by 33 ms");
    }
}
