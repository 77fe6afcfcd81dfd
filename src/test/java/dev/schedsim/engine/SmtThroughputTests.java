package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.topology.Topology;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SMT throughput model ({@code engine.machine.Smt}): a core with k busy hardware threads delivers T(k) times the
 * work of one thread alone, shared equally, so each thread progresses at T(k)/k; work is at full
 * single-thread speed, usage is CPU time. Expected completion times come from the curve of the topology's
 * {@link HardwareModel}, never from a measured run.
 */
class SmtThroughputTests {
    static final long WORK_US = 100_000;
    static final double TOLERANCE = 0.01;

    /** One single-thread cpu-bound workload pinned to each listed CPU, each with {@code workUs}. */
    private static Report runPinned(TopologySpec topo, int[] cpus, long[] workUs) {
        List<WorkloadSpec> w = new ArrayList<>();
        for (int i = 0; i < cpus.length; i++) {
            w.add(TestWorkloads.cpuBound("w" + i, "/", 1, 0, new int[] {cpus[i]}, workUs[i]));
        }
        return Specs.run(Specs.spec(topo, Specs.kernel("6.18"), List.of(), w, 2_000_000), 1);
    }

    private static Report runPinned(TopologySpec topo, int[] cpus) {
        long[] work = new long[cpus.length];
        java.util.Arrays.fill(work, WORK_US);
        return runPinned(topo, cpus, work);
    }

    private static void assertCompletion(double expectedUs, Report.WorkloadReport w) {
        assertTrue(w.completionUs() > 0, w.name() + " did not complete");
        assertTrue(Math.abs(w.completionUs() - expectedUs) <= TOLERANCE * expectedUs,
                w.name() + " completed at " + w.completionUs() + " µs, expected " + expectedUs + " ± 1 %");
    }

    @Test
    void twoSiblingsOfOneCoreShareItsThroughput() {
        TopologySpec topo = Specs.preset("desktop-8c-smt2");
        // CPUs 0 and 8 are the two threads of core 0 (cpu = thread·cores + core).
        assertArrayEquals(new int[] {0, 8}, new Topology(topo).siblingsOfCore(0));
        double t2 = topo.hardware().throughput(2);
        Report r = runPinned(topo, new int[] {0, 8});
        for (Report.WorkloadReport w : r.workloads()) {
            // Each thread progresses at T(2)/2: 100 ms of work takes 100 ms · 2 / T(2) (160 ms for T(2) = 1.25).
            assertCompletion(WORK_US * 2 / t2, w);
            // The CPU time charged is the wall time on the CPU, not the work.
            assertTrue(Math.abs(w.cpuUsec() - WORK_US * 2 / t2) <= TOLERANCE * WORK_US * 2 / t2, "cpuUsec");
        }
        // Throughput of a cpu-bound workload is work done per second: T(2)/2 CPU-seconds of work per second.
        for (Report.WorkloadReport w : r.workloads()) {
            assertTrue(Math.abs(w.throughputPerSec() - t2 / 2) <= TOLERANCE * t2 / 2, "throughput " + w);
        }
    }

    @Test
    void aThreadAloneOnItsCoreRunsAtFullSpeed() {
        TopologySpec topo = Specs.preset("desktop-8c-smt2");
        assertCompletion(WORK_US, runPinned(topo, new int[] {0}).workloads().get(0));
        // Two threads on different cores do not share anything.
        Report r = runPinned(topo, new int[] {0, 1});
        for (Report.WorkloadReport w : r.workloads()) {
            assertCompletion(WORK_US, w);
        }
    }

    @Test
    void theSurvivorSpeedsUpWhenItsSiblingFinishes() {
        TopologySpec topo = Specs.preset("desktop-8c-smt2");
        double perThread = topo.hardware().throughput(2) / 2;
        long shortWork = WORK_US / 2;
        Report r = runPinned(topo, new int[] {0, 8}, new long[] {WORK_US, shortWork});
        // Both at T(2)/2 until the short one is done; then the long one runs alone at full speed.
        double shortDone = shortWork / perThread;
        double longDone = shortDone + (WORK_US - shortWork);
        assertCompletion(shortDone, Specs.workload(r, "w1"));
        assertCompletion(longDone, Specs.workload(r, "w0"));
    }

    @ParameterizedTest(name = "{0} busy threads")
    @ValueSource(ints = {1, 2, 4, 8})
    void power10CoreWithKBusyThreads(int k) {
        TopologySpec topo = Specs.preset("power10-8c-smt8");
        Topology t = new Topology(topo);
        int[] cpus = new int[k];
        for (int i = 0; i < k; i++) {
            cpus[i] = t.siblingsOfCore(0)[i]; // 0, 8, 16, … 56
            assertTrue(cpus[i] == i * t.coreCount());
        }
        double tk = topo.hardware().throughput(k);
        Report r = runPinned(topo, cpus);
        for (Report.WorkloadReport w : r.workloads()) {
            // 100 ms · k / T(k); with all eight siblings 100 ms · 8 / 2.8.
            assertCompletion(WORK_US * k / tk, w);
        }
    }

    @Test
    void aHardwareOverrideOfTheCurveChangesTheResult() {
        HardwareModel d = HardwareModel.defaults(2);
        double t2 = 1.6; // an assumed curve, different from the default 1.25
        HardwareModel hw = new HardwareModel(new double[] {1.0, t2}, d.cacheRefillNsPerKb(), d.shallowIdleExitNs(),
                d.deepIdleExitNs(), d.deepIdleResidencyNs(), d.coreIdleWatts(), d.deepIdleWatts(), d.coreBusyWatts(),
                d.smtThreadWatts(), d.contextSwitchNs(), d.updateCurrNs(), d.bandwidthHookNs(),
                d.idleScanPerCpuNs(), d.balancePerCpuNs(), d.blockedAveragesPerCfsRqNs(), d.lineTransferNs(),
                d.wakeKernelNs(), d.hrtimerSleepNs(), d.hrtimerIrqNs(), d.hrtimerReprogramNs(), d.ipiWakeNs(),
                d.ipiDeliveryNs(), d.wakeClockSkipNs(), d.idleExitCpuShare(), d.noise(), d.busiestRqLock());
        TopologySpec base = Specs.preset("desktop-8c-smt2");
        TopologySpec topo = base.withHardware(hw);
        Report r = runPinned(topo, new int[] {0, 8});
        for (Report.WorkloadReport w : r.workloads()) {
            assertCompletion(WORK_US * 2 / t2, w); // 125 ms instead of 160 ms
        }
    }
}
