package dev.schedsim.engine.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.Specs;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.engine.topology.Topology;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * sched_balance_running is one cache line that every CPU whose tick runs sched_balance_domains() asks for in the
 * same instant (ticks aligned, sched_skew_tick off): the accesses queue, so what one compare-and-swap costs grows
 * with the number of CPUs that arrive together, not with a constant per access.
 */
class BalanceSerializeTests {

    private static final int CPUS = 480;
    private static final long DURATION_US = 50_000;

    /** ns one compare-and-swap on sched_balance_running cost on average, under seed 004's OLTP-like load. */
    private static double nsPerCas(boolean skewTick) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.BALANCE_DUE_BEFORE_SERIALIZE, false);
        f.put(Feature.SCHED_SKEW_TICK, skewTick);
        Report.SchedulerReport r = Specs.run(Specs.spec(Specs.preset("gnr-2s-snc3-smt2"),
                Specs.kernel("6.18", 1000, f), List.of(),
                List.of(WorkloadSpec.requestResponse("oltp", "/", 400, 60, 30),
                        WorkloadSpec.periodic("bg", "/", 200, 300, 200, 30)), DURATION_US), 1).scheduler();
        double ns = r.serializePct() / 100 * CPUS * DURATION_US * 1000 / r.serializeAttempts();
        System.out.printf("sched_skew_tick=%d: %d CAS, %.0f ns each, %.3f %% of the cycles%n", skewTick ? 1 : 0,
                r.serializeAttempts(), ns, r.serializePct());
        return ns;
    }

    @Test
    void aCompareAndSwapWaitsForTheCpusWhoseTicksArrivedTogether() {
        long transfer = BalanceSerialize.meanTransferNs(new Topology(TopologySpec.uniform(2, 3, 1, 40, 2)),
                HardwareModel.defaultLineTransferNs());
        double aligned = nsPerCas(false);
        double skewed = nsPerCas(true);
        // Aligned, hundreds of CPUs reach the line in the same microsecond and each waits for those before it;
        // skewed over half a tick (about 1 µs apart on 480 CPUs), an access mostly finds the line free.
        assertTrue(aligned > 50 * transfer, "aligned ticks queue: " + aligned + " ns a CAS");
        assertTrue(skewed < aligned / 10, "skewed ticks do not: " + skewed + " vs " + aligned + " ns");
    }

    @Test
    void queuedTransfersCostTheMeanDistanceOfTheMachine() {
        // 2 sockets × 3 nodes × 40 cores × SMT2: from one CPU, 1 sibling, 78 in its LLC, 160 in its socket's other
        // nodes, 240 on the other socket.
        Topology t = new Topology(TopologySpec.uniform(2, 3, 1, 40, 2));
        long[] ns = HardwareModel.defaultLineTransferNs();
        double expect = (1 * ns[0] + 78 * ns[1] + 160 * ns[2] + 240 * ns[3]) / 479.0;
        assertEquals(Math.round(expect), BalanceSerialize.meanTransferNs(t, ns));
        assertEquals(3, BalanceSerialize.distance(t, 0, t.cpuCount() - 1));
    }
}
