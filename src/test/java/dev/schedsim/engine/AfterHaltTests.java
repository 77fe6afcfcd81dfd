package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.RunClock;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MachineNoise.AfterHalt: a vCPU that halted less than its window before loses its factor times a busy vCPU's
 * interrupt time (measured by rungaps: a periodic thread's runs against a busy loop's; docs/latency-validation.md,
 * "A vCPU that halted loses more"). A work run pays it on top of its work; a run on the thread's CPU clock counts it
 * toward its length.
 */
class AfterHaltTests {
    static final long SECONDS = 4;
    /** 2 000 interrupts a second of 10 µs each (σ 0): 2 % of a busy CPU. */
    static final MachineNoise IRQS = new MachineNoise(2_000, 10_000, 0, 0, List.of());

    private static Report.WorkloadReport run(MachineNoise.AfterHalt afterHalt, WorkloadSpec w) {
        return run(afterHalt, w, SECONDS);
    }

    private static Report.WorkloadReport run(MachineNoise.AfterHalt afterHalt, WorkloadSpec w, long seconds) {
        MachineNoise n = new MachineNoise(IRQS.irqPerSec(), IRQS.irqMedianNs(), IRQS.irqSigma(), 0, List.of(),
                List.of(), MachineNoise.WakeDelay.NONE, afterHalt);
        TopologySpec t = Specs.preset("validation-2c");
        TopologySpec topo = t.withHardware(t.hardware().withNoise(n));
        return Specs.run(Specs.spec(topo, Specs.kernel("6.18"), List.of(), List.of(w), seconds * 1_000_000), 1)
                .workloads().get(0);
    }

    private static double cpuPerCycle(Report.WorkloadReport r) {
        return cpuPerCycle(r, SECONDS);
    }

    private static double cpuPerCycle(Report.WorkloadReport r, long seconds) {
        return r.cpuUsec() / (r.throughputPerSec() * seconds);
    }

    private static WorkloadSpec periodic(long runUs, long sleepUs, RunClock clock) {
        return WorkloadSpec.periodic("p", "/", 1, runUs, sleepUs).withCpus(new int[] {1}).withRunClock(clock);
    }

    @Test
    void aWorkRunAfterAHaltPaysTheFactorOnItsInterrupts() {
        // 1 ms of work after 4 ms asleep: about 20 µs of interrupts a run at the busy rate, 30 at 1.5 times it
        double base = cpuPerCycle(run(MachineNoise.AfterHalt.NONE, periodic(1000, 4000, RunClock.WORK)));
        double more = cpuPerCycle(run(new MachineNoise.AfterHalt(1.5, 15_000_000), periodic(1000, 4000, RunClock.WORK)));
        double extra = more - base;
        assertTrue(extra >= 7 && extra <= 13, "CPU a cycle " + base + " -> " + more + " µs: +" + extra
                + " where half a run's 2 % of interrupts is about 10");
    }

    @Test
    void aRunLongerThanTheWindowPaysItOnlyAtItsStart() {
        // 40 ms of work after 20 ms asleep, twice the interrupts in the first 15 ms: +0.3 ms a cycle, where the
        // whole run at twice would be +0.8 (60 s: a partial last cycle moves the quotient by about 40 µs)
        long s = 60;
        MachineNoise.AfterHalt twice = new MachineNoise.AfterHalt(2, 15_000_000);
        double base = cpuPerCycle(run(MachineNoise.AfterHalt.NONE, periodic(40_000, 20_000, RunClock.WORK), s), s);
        double more = cpuPerCycle(run(twice, periodic(40_000, 20_000, RunClock.WORK), s), s);
        double extra = more - base;
        assertTrue(extra >= 200 && extra <= 420, "CPU a cycle " + base + " -> " + more + " µs: +" + extra
                + " where 15 ms at twice 2 % is about 300");
    }

    @Test
    void aRunOnItsOwnCpuClockCountsThemTowardItsLength() {
        double base = cpuPerCycle(run(MachineNoise.AfterHalt.NONE, periodic(1000, 4000, RunClock.THREAD_CPU)));
        double more = cpuPerCycle(run(new MachineNoise.AfterHalt(1.5, 15_000_000),
                periodic(1000, 4000, RunClock.THREAD_CPU)));
        assertEquals(base, more, 1.0, "CPU a cycle of a thread-clock run, µs");
    }

    @Test
    void aThreadThatComputesOnPaysItOnlyForTheWindowAfterItsStart() {
        // 1 s of work from the start of the run: its CPU comes out of idle once, so only the first 15 ms carry the
        // factor — twice 2 % there finishes it about 0.3 ms later, where the whole second at twice would be 20 ms
        WorkloadSpec once = WorkloadSpec.of("once", "/", new WorkloadSpec.CpuBound(1, 1_000_000))
                .withCpus(new int[] {1});
        double base = run(MachineNoise.AfterHalt.NONE, once).completionUs();
        double later = run(new MachineNoise.AfterHalt(2, 15_000_000), once).completionUs();
        assertTrue(later - base >= 150 && later - base <= 450, "completion " + base + " -> " + later
                + " µs: +" + (later - base) + " where 15 ms at twice 2 % is about 300");
    }
}
