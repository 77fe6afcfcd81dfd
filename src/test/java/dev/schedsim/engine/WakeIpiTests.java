package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HardwareModel.ipiWakeNs and ipiDeliveryNs (WakeIpi): a wakeup onto another CPU that is idle is sent by IPI; the
 * target starts leaving idle ipiDeliveryNs later and the woken task pays ipiWakeNs of CPU. A wakeup onto the waker's
 * own CPU sends none.
 */
class WakeIpiTests {
    static final long NS = 5_000;

    /**
     * A request-response pair, 10 µs a side, on the quiet validation-2c for 1 s: [wall and CPU µs a transaction,
     * wakeup latency p50 µs].
     */
    private static double[] pair(long wakeNs, long deliveryNs, boolean across) {
        TopologySpec t = Specs.preset("validation-2c");
        TopologySpec topo = t.withHardware(t.hardware().withWakeIpi(wakeNs, deliveryNs));
        WorkloadSpec w = WorkloadSpec.of("pp", "/", new WorkloadSpec.RequestResponse(1, 10, 10,
                new int[] {across ? 1 : 0})).withCpus(new int[] {0});
        Report.WorkloadReport r = Specs.run(Specs.spec(topo, Specs.kernel("6.18"), List.of(), List.of(w), 1_000_000),
                1).workloads().get(0);
        double tx = r.throughputPerSec();
        return new double[] {1e6 / tx, r.cpuUsec() / tx, r.wakeupLatencyUs().p50()};
    }

    @Test
    void aWakeupAcrossToAnIdleCpuPaysTheIpi() {
        double[] base = pair(0, 0, true);
        double[] wake = pair(NS, 0, true);
        double[] delivery = pair(0, NS, true);
        double us = NS / 1000.0;
        // two wakeups a transaction, each onto the other, idle CPU
        assertEquals(base[1] + 2 * us, wake[1], 1, "CPU a transaction, µs, with ipiWakeNs (base " + base[1] + ")");
        assertEquals(base[0] + 2 * us, wake[0], 1, "wall a transaction, µs, with ipiWakeNs (base " + base[0] + ")");
        assertEquals(base[2] + us, delivery[2], 0.5, "wakeup latency p50, µs, with ipiDeliveryNs");
        assertEquals(base[0] + 2 * us, delivery[0], 1, "wall a transaction, µs, with ipiDeliveryNs");
        assertEquals(base[1], delivery[1], 0.5, "CPU a transaction, µs, with ipiDeliveryNs");
    }

    @Test
    void aWakeupOnItsOwnCpuSendsNone() {
        double[] base = pair(0, 0, false);
        double[] both = pair(NS, NS, false);
        assertEquals(base[0], both[0], 0.01, "wall a transaction, µs");
        assertEquals(base[1], both[1], 0.01, "CPU a transaction, µs");
    }
}
