package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The machine's own activity (MachineNoise) on validation-2c, against what was measured there
 * (src/test/resources/validation/latency-cases.json, "machineNoise" and the runs' "background"): interrupts take
 * 1.0-1.2 % of a computing thread's time, the background threads keep the idle machine 0.1-2.4 % busy (median
 * 0.5 %), and a sleep's timer fires a few µs late.
 */
class MachineNoiseTests {
    static Report run(TopologySpec topo, List<WorkloadSpec> w, long durationUs) {
        return Specs.run(Specs.spec(topo, Specs.kernel("6.18"), List.of(), w, durationUs), 3);
    }

    @Test
    void interruptsSlowAComputingThreadByTheirShareOfTime() {
        // 200 ms of work on each CPU: the interrupts' time is charged to the threads, so they finish later.
        List<WorkloadSpec> w = List.of(WorkloadSpec.cpuBound("c", "/", 2, 200_000));
        Report noisy = run(Specs.noisy("validation-2c"), w, 1_000_000);
        Report quiet = run(Specs.preset("validation-2c"), w, 1_000_000);
        double slower = (double) noisy.workloads().get(0).completionUs() / quiet.workloads().get(0).completionUs();
        MachineNoise n = MachineNoise.validation2c();
        double share = n.irqPerSec() * n.irqMedianNs() * Math.exp(n.irqSigma() * n.irqSigma() / 2) / 1e9;
        assertTrue(slower > 1 + share * 0.8 && slower < 1 + share * 1.2 + 0.02,
                "completion " + slower + "x the quiet machine's, interrupts " + share * 100 + " % of the time");
    }

    @Test
    void theIdleMachineIsBusyWithItsBackgroundThreads() {
        // A thread that sleeps all the time: what keeps the CPUs busy is the machine's own.
        List<WorkloadSpec> w = List.of(WorkloadSpec.periodic("s", "/", 1, 1, 1_000_000));
        Report r = run(Specs.noisy("validation-2c"), w, 10_000_000);
        double busy = r.cpus().busyPct();
        assertTrue(busy > 0.1 && busy < 2.4, "busy " + busy + " % (measured 0.1-2.4 %, median 0.5 %)");
        assertTrue(run(Specs.preset("validation-2c"), w, 10_000_000).cpus().busyPct() < 0.01,
                "without noise the machine idles");
        // The background threads are not workloads of the report.
        assertTrue(r.workloads().size() == 1);
    }

    @Test
    void aSleepsTimerFiresLate() {
        // Alone on the machine, a periodic thread's cycle is its run, its sleep and the timer slack, plus the
        // idle exits; with noise its timers are also a few µs late (and interrupts stretch its runs).
        List<WorkloadSpec> w = List.of(WorkloadSpec.periodic("p", "/", 1, 100, 900));
        double quiet = run(Specs.preset("validation-2c"), w, 2_000_000).workloads().get(0).throughputPerSec();
        double noisy = run(Specs.noisy("validation-2c"), w, 2_000_000).workloads().get(0).throughputPerSec();
        double lateUs = (1e6 / noisy - 1e6 / quiet);
        MachineNoise n = MachineNoise.validation2c();
        assertTrue(lateUs > n.timerJitterNs() / 1000.0 * 0.5 && lateUs < n.timerJitterNs() / 1000.0 * 2 + 5,
                "cycles " + lateUs + " µs longer with noise");
    }
}
