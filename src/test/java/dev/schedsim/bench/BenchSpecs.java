package dev.schedsim.bench;

import dev.schedsim.engine.EngineSpec;
import dev.schedsim.engine.bandwidth.CgroupSpec;
import dev.schedsim.engine.kernel.Feature;
import dev.schedsim.engine.kernel.KernelConfig;
import dev.schedsim.engine.kernel.KernelProfiles;
import dev.schedsim.engine.topology.TopologyPresets;
import dev.schedsim.engine.topology.TopologySpec;
import dev.schedsim.engine.workload.WorkloadSpec;
import java.util.EnumMap;
import java.util.List;

/** The benchmark machines and workloads (issue "The service end to end": 64 CPUs, 256 threads, mixed). */
public final class BenchSpecs {
    private BenchSpecs() {
    }

    /**
     * 64 CPUs (power10-8c-smt8), 256 threads: a third CPU-bound in a limited /batch, a third periodic
     * (2 ms run / 8 ms sleep) in /web, a third request-response pairs in a limited /svc.
     */
    public static EngineSpec mixed64(long durationUs) {
        return mixed(TopologyPresets.byName("power10-8c-smt8").spec(), 256, durationUs);
    }

    /** The same mix scaled to any machine and thread count. */
    public static EngineSpec mixed(TopologySpec topo, int threads, long durationUs) {
        int cpus = topo.cpuCount();
        int third = threads / 3;
        int pairs = (threads - 2 * third) / 2;
        KernelConfig k = KernelConfig.of(KernelProfiles.newest(), 250, new EnumMap<>(Feature.class), 5000);
        List<CgroupSpec> cg = List.of(
                CgroupSpec.unlimited("/", 100),
                new CgroupSpec("/batch", Math.max(1000, cpus / 4 * 100_000L), 100_000, 0, 100),
                CgroupSpec.unlimited("/web", 200),
                new CgroupSpec("/svc", Math.max(1000, cpus / 8 * 100_000L), 100_000, 0, 100));
        List<WorkloadSpec> w = List.of(
                WorkloadSpec.cpuBound("batch", "/batch", third, 0),
                WorkloadSpec.periodic("web", "/web", third, 2_000, 8_000),
                WorkloadSpec.requestResponse("svc", "/svc", Math.max(1, pairs), 50, 20));
        return new EngineSpec(topo, k, cg, w, durationUs, false);
    }
}
