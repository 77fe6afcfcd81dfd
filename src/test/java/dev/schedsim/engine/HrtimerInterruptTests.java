package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HardwareModel.hrtimerIrqNs (HrtimerInterrupt): a sleep timer that expires while another task runs on its CPU
 * takes that task's time, and the woken task becomes runnable at the interrupt's end, so the charge stays with the
 * interrupted task even when the wakeup preempts it.
 */
class HrtimerInterruptTests {
    static final long IRQ_NS = 10_000;

    /**
     * A thread with 1.5 s of work and a 50/950 µs sleeper on CPU 0 of the quiet validation-2c, 2 s: [the busy
     * thread's lost time per sleeper wakeup while it had work (its CPU time minus its work), the sleeper's CPU a
     * cycle], µs.
     */
    private static double[] run(long irqNs) {
        TopologySpec t = Specs.preset("validation-2c");
        TopologySpec topo = t.withHardware(t.hardware().withHrtimerIrqNs(irqNs));
        Report r = Specs.run(Specs.spec(topo, Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.cpuBound("busy", "/", 1, 1_500_000).withCpus(new int[] {0}),
                        WorkloadSpec.periodic("sleeper", "/", 1, 50, 950).withCpus(new int[] {0})), 2_000_000), 1);
        Report.WorkloadReport b = r.workloads().get(0);
        Report.WorkloadReport s = r.workloads().get(1);
        double wakeups = s.throughputPerSec() * b.completionUs() / 1e6;
        return new double[] {(b.cpuUsec() - 1_500_000) / wakeups, s.cpuUsec() / (s.throughputPerSec() * 2)};
    }

    @Test
    void theExpiryIsTheInterruptedTasksTime() {
        double[] without = run(0);
        double[] with = run(IRQ_NS);
        double irqUs = IRQ_NS / 1000.0;
        assertTrue(Math.abs(with[0] - without[0] - irqUs) < 0.2 * irqUs, "the busy thread loses " + without[0]
                + " µs per wakeup without the interrupt's cost, " + with[0] + " with it");
        // (woken at the interrupt's end, the sleeper does not inherit the interrupted task's stall when it
        // preempts it: a wakeup done at the expiry would hand it the stall)
        assertEquals(without[1], with[1], 0.5, "the sleeper's CPU a cycle, µs, without and with it");
    }
}
