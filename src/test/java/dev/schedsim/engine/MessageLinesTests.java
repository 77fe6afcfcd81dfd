package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * WorkloadSpec.RequestResponse.messageLines (CacheModel.messageTransfer()): a request or response read on another
 * CPU than its sender's costs each line's transfer by distance before the receiver runs; on the sender's own CPU
 * nothing.
 */
class MessageLinesTests {
    static final int LINES = WorkloadSpec.RequestResponse.TCP_RR_LOOPBACK_LINES;

    /** A pair, 10 µs a side, on the quiet validation-2c (two cores) for 1 s: [wall, CPU] µs a transaction. */
    private static double[] pair(int lines, boolean across) {
        TopologySpec t = Specs.preset("validation-2c");
        WorkloadSpec w = WorkloadSpec.of("pp", "/", new WorkloadSpec.RequestResponse(1, 10, 10,
                new int[] {across ? 1 : 0}, lines)).withCpus(new int[] {0});
        Report.WorkloadReport r = Specs.run(Specs.spec(t, Specs.kernel("6.18"), List.of(), List.of(w), 1_000_000), 1)
                .workloads().get(0);
        double tx = r.throughputPerSec();
        return new double[] {1e6 / tx, r.cpuUsec() / tx};
    }

    @Test
    void aMessageReadOnAnotherCpuPaysItsLines() {
        HardwareModel hw = Specs.preset("validation-2c").hardware();
        // two messages a transaction, each read on the other CPU (validation-2c: two cores of one LLC, distance 1)
        double us = 2 * LINES * hw.lineTransferNs()[1] / 1000.0;
        double[] base = pair(0, true);
        double[] lines = pair(LINES, true);
        assertEquals(base[0] + us, lines[0], 0.3, "wall a transaction, µs (base " + base[0] + ")");
        assertEquals(base[1] + us, lines[1], 0.3, "CPU a transaction, µs (base " + base[1] + ")");
    }

    @Test
    void aMessageReadOnItsSendersCpuCostsNothing() {
        double[] base = pair(0, false);
        double[] lines = pair(LINES, false);
        assertEquals(base[0], lines[0], 0.01, "wall a transaction, µs");
        assertEquals(base[1], lines[1], 0.01, "CPU a transaction, µs");
    }
}
