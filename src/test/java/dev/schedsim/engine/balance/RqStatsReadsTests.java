package dev.schedsim.engine.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.fair.CfsRq;
import dev.schedsim.engine.fair.TaskGroup;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The statistics pass of a balance costs what its reads of other CPUs' rq lines cost: nothing beyond the loop body
 * for a line still in the balancing CPU's cache, a transfer by distance for each line its owner wrote since.
 */
class RqStatsReadsTests {
    private static final long PER_CPU = 30;
    private static final long[] TRANSFER = {15, 60, 110, 190};

    /** 2 sockets × 2 cores × SMT2: 8 CPUs, a sibling, an LLC of 4 and another socket for each. */
    private final Topology topo = new Topology(TopologySpec.uniform(2, 1, 1, 2, 2));
    private final SimClock clock = new SimClock();
    private final Cpu[] cpus = new Cpu[topo.cpuCount()];
    private final RqStatsReads reads;

    RqStatsReadsTests() {
        TaskGroup root = new TaskGroup(0, "/", null, 1024, cpus.length);
        for (int c = 0; c < cpus.length; c++) {
            cpus[c] = new Cpu(c, topo.coreOf(c), new CfsRq(root, c, null));
        }
        reads = new RqStatsReads(clock, topo, cpus, PER_CPU, TRANSFER);
    }

    private static int[] all(int n) {
        return java.util.stream.IntStream.range(0, n).toArray();
    }

    @Test
    void anIdleMachineCostsTheLoopBodyAlone() {
        clock.now = 1_000_000;
        assertEquals(8 * PER_CPU, reads.updateSdLbStats(0, all(8)));
    }

    /** The first CPU at that distance from {@code from} (0 same core, 1 same LLC, 3 another socket). */
    private int at(int from, int distance) {
        for (int c = 0; c < cpus.length; c++) {
            if (c != from && BalanceSerialize.distance(topo, from, c) == distance) {
                return c;
            }
        }
        throw new IllegalStateException("no CPU at distance " + distance);
    }

    @Test
    void aLineWrittenSinceTheLastReadCostsItsTransferByDistance() {
        clock.now = 1_000_000;
        reads.updateSdLbStats(0, all(8));
        cpus[at(0, 0)].busy = true; // the SMT sibling
        cpus[at(0, 1)].idleSince = 1_500_000; // a CPU of the LLC went idle after the read: its dequeue wrote the lines
        cpus[at(0, 3)].busy = true; // the other socket
        clock.now = 2_000_000;
        long lines = RqStatsReads.LINES_PER_RQ;
        assertEquals(8 * PER_CPU + lines * (TRANSFER[0] + TRANSFER[1] + TRANSFER[3]), reads.updateSdLbStats(0, all(8)));
        // Read again: the busy CPUs keep writing, the one that idled since before the read has not.
        clock.now = 2_100_000;
        assertEquals(8 * PER_CPU + lines * (TRANSFER[0] + TRANSFER[3]), reads.updateSdLbStats(0, all(8)));
    }

    @Test
    void eachBalancingCpuHasItsOwnCacheAndItsOwnRqCostsNoTransfer() {
        clock.now = 1_000_000;
        int remote = at(0, 3);
        int remoteSibling = at(remote, 0);
        cpus[remoteSibling].busy = true;
        reads.updateSdLbStats(0, all(8));
        // The remote CPU never read its sibling's lines; it is busy itself, and its own rq costs no transfer.
        cpus[remote].busy = true;
        assertEquals(8 * PER_CPU + RqStatsReads.LINES_PER_RQ * TRANSFER[0], reads.updateSdLbStats(remote, all(8)));
    }
}
