package dev.schedsim.engine;

import dev.schedsim.engine.bandwidth.CgroupSpec;
import dev.schedsim.engine.kernel.Feature;
import dev.schedsim.engine.kernel.KernelConfig;
import dev.schedsim.engine.kernel.KernelProfiles;
import dev.schedsim.engine.topology.TopologyPresets;
import dev.schedsim.engine.topology.TopologySpec;
import dev.schedsim.engine.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Builders for engine specs in tests. */
final class Specs {
    private Specs() {
    }

    static KernelConfig kernel(String profile, int hz, Map<Feature, Boolean> overrides) {
        return KernelConfig.of(KernelProfiles.byName(profile), hz, overrides, 5000);
    }

    static KernelConfig kernel(String profile) {
        return kernel(profile, 250, new EnumMap<>(Feature.class));
    }

    static TopologySpec preset(String name) {
        return TopologyPresets.byName(name).spec();
    }

    /**
     * The same machine without scheduler overheads or cache refill costs (idle-state exit latencies kept), for
     * tests of mechanisms whose expected values the overhead model would blur.
     */
    static TopologySpec frictionless(TopologySpec t) {
        dev.schedsim.engine.topology.HardwareModel d = t.hardware();
        dev.schedsim.engine.topology.HardwareModel hw = new dev.schedsim.engine.topology.HardwareModel(
                d.smtThroughput(), new long[] {0, 0, 0, 0}, d.shallowIdleExitNs(), d.deepIdleExitNs(),
                d.deepIdleResidencyNs(), d.coreIdleWatts(), d.deepIdleWatts(), d.coreBusyWatts(), d.smtThreadWatts(),
                0, 0, 0, 0, 0, 0, 0, 0, 0);
        return new TopologySpec(t.sockets(), t.numaNodesPerSocket(), t.llcsPerNumaNode(), t.coresPerLlc(),
                t.threadsPerCore(), t.llcCores(), hw);
    }

    static EngineSpec spec(TopologySpec topo, KernelConfig k, List<CgroupSpec> cgroups, List<WorkloadSpec> w,
                           long durationUs) {
        List<CgroupSpec> all = new ArrayList<>();
        all.add(CgroupSpec.unlimited("/", 100));
        all.addAll(cgroups);
        return new EngineSpec(topo, k, all, w, durationUs, false);
    }

    static Report.CgroupReport cgroup(Report r, String path) {
        return r.cgroups().stream().filter(c -> c.path().equals(path)).findFirst().orElseThrow();
    }

    static Report.WorkloadReport workload(Report r, String name) {
        return r.workloads().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    static Report run(EngineSpec s, long seed) {
        return Engine.run(s, seed, Long.MAX_VALUE, RunControl.NONE);
    }
}
