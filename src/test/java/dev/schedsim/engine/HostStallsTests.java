package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A virtual machine's host (MachineNoise.HostStall, WakeDelay; HostStalls): a busy vCPU preempted by its host does
 * nothing of the guest's meanwhile — its task's work waits, uncharged (steal) — and its timers fire at the end; a
 * halted vCPU woken by a timer may wait for its host beyond its idle exit.
 */
class HostStallsTests {
    /** Five host preemptions a second of exactly 2 ms on a busy vCPU, nothing else. */
    static final MachineNoise STALLS = new MachineNoise(0, 0, 0, 0, List.of(),
            List.of(new MachineNoise.HostStall("host", 5, 2_000_000, 0)), null);

    private static TopologySpec machine(MachineNoise noise) {
        TopologySpec t = Specs.preset("validation-2c");
        return t.withHardware(t.hardware().withNoise(noise));
    }

    private static Report run(MachineNoise noise, List<WorkloadSpec> w, long us) {
        return Specs.run(Specs.spec(machine(noise), Specs.kernel("6.18"), List.of(), w, us), 1);
    }

    @Test
    void aStolenStretchDelaysTheWorkButIsNotCharged() {
        List<WorkloadSpec> w = List.of(WorkloadSpec.cpuBound("b", "/", 1, 2_000_000).withCpus(new int[] {0}));
        Report.WorkloadReport quiet = run(MachineNoise.NONE, w, 3_000_000).workloads().get(0);
        Report.WorkloadReport stalled = run(STALLS, w, 3_000_000).workloads().get(0);
        // about 10 stalls of 2 ms in its 2 s
        long later = stalled.completionUs() - quiet.completionUs();
        assertTrue(later > 8_000 && later < 40_000, "the work ends " + later + " µs later");
        assertEquals(quiet.cpuUsec(), stalled.cpuUsec(), 100, "its CPU time, µs");
    }

    @Test
    void aTimerOnAStolenVcpuFiresWhenItRunsAgain() {
        // a 100/900 µs sleeper beside a busy nice-19 thread on CPU 0, whose host takes 5 ms twenty times a second:
        // a timer due meanwhile fires at the stall's end, so about five of its cycles go by each time (10 % fewer),
        // and what it is charged a cycle does not change
        MachineNoise heavy = new MachineNoise(0, 0, 0, 0, List.of(),
                List.of(new MachineNoise.HostStall("host", 20, 5_000_000, 0)), null);
        List<WorkloadSpec> w = List.of(WorkloadSpec.cpuBound("b", "/", 1, 0).withCpus(new int[] {0}).withNice(19),
                WorkloadSpec.periodic("s", "/", 1, 100, 900).withCpus(new int[] {0}));
        Report.WorkloadReport quiet = run(MachineNoise.NONE, w, 2_000_000).workloads().get(1);
        Report.WorkloadReport stalled = run(heavy, w, 2_000_000).workloads().get(1);
        double fewer = 1 - stalled.throughputPerSec() / quiet.throughputPerSec();
        assertTrue(fewer > 0.06 && fewer < 0.15, "cycles " + stalled.throughputPerSec() + "/s against "
                + quiet.throughputPerSec() + "/s");
        assertEquals(quiet.cpuUsec() / quiet.throughputPerSec(), stalled.cpuUsec() / stalled.throughputPerSec(), 2,
                "CPU a cycle, µs");
    }

    @Test
    void aHaltedVcpuWaitsForItsHost() {
        MachineNoise every = new MachineNoise(0, 0, 0, 0, List.of(), List.of(),
                new MachineNoise.WakeDelay(100, 50_000, 0));
        List<WorkloadSpec> w = List.of(WorkloadSpec.periodic("s", "/", 1, 100, 900).withCpus(new int[] {0}));
        double quiet = run(MachineNoise.NONE, w, 1_000_000).workloads().get(0).wakeupLatencyUs().p50();
        double delayed = run(every, w, 1_000_000).workloads().get(0).wakeupLatencyUs().p50();
        assertEquals(quiet + 50, delayed, 2, "the median wakeup latency, µs");
    }
}
