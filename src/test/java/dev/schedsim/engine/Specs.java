package dev.schedsim.engine;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Builders for engine specs in tests. */
public final class Specs {
    private Specs() {
    }

    public static KernelConfig kernel(String profile, int hz, Map<Feature, Boolean> overrides) {
        return KernelConfig.of(KernelProfiles.byName(profile), hz, overrides, 5000);
    }

    public static KernelConfig kernel(String profile) {
        return kernel(profile, 250, new EnumMap<>(Feature.class));
    }

    /**
     * A preset machine without its machine noise (MachineNoise.NONE): for tests of mechanisms, whose expected
     * values the noise would blur. {@link #noisy} is the preset as a user gets it.
     */
    public static TopologySpec preset(String name) {
        return quiet(noisy(name));
    }

    /** A preset machine as the service runs it, its machine noise included. */
    public static TopologySpec noisy(String name) {
        return TopologyPresets.byName(name).spec();
    }

    /** The same machine without machine noise. */
    public static TopologySpec quiet(TopologySpec t) {
        return t.withHardware(t.hardware().withNoise(MachineNoise.NONE));
    }

    /**
     * The same machine without scheduler overheads or cache refill costs (idle-state exit latencies kept), for
     * tests of mechanisms whose expected values the overhead model would blur.
     */
    public static TopologySpec frictionless(TopologySpec t) {
        dev.schedsim.engine.spec.HardwareModel d = t.hardware();
        dev.schedsim.engine.spec.HardwareModel hw = new dev.schedsim.engine.spec.HardwareModel(
                d.smtThroughput(), new long[] {0, 0, 0, 0}, d.shallowIdleExitNs(), d.deepIdleExitNs(),
                d.deepIdleResidencyNs(), d.coreIdleWatts(), d.deepIdleWatts(), d.coreBusyWatts(), d.smtThreadWatts(),
                0, 0, 0, 0, 0, 0, new long[] {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0, 0, d.idleExitCpuShare(), MachineNoise.NONE,
                false);
        return t.withHardware(hw);
    }

    public static EngineSpec spec(TopologySpec topo, KernelConfig k, List<CgroupSpec> cgroups, List<WorkloadSpec> w,
                           long durationUs) {
        List<CgroupSpec> all = new ArrayList<>();
        all.add(CgroupSpec.unlimited("/", 100));
        all.addAll(cgroups);
        return new EngineSpec(topo, k, all, w, durationUs, false);
    }

    /** The same spec with its trace recorded (start, stop and warm-up kept). */
    public static EngineSpec traced(EngineSpec s) {
        return new EngineSpec(s.topology(), s.kernel(), s.cgroups(), s.workloads(), s.durationUs(), true, s.startUs(),
                s.stopUs(), s.warmup());
    }

    public static Report.CgroupReport cgroup(Report r, String path) {
        return r.cgroups().stream().filter(c -> c.path().equals(path)).findFirst().orElseThrow();
    }

    public static Report.WorkloadReport workload(Report r, String name) {
        return r.workloads().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    public static Report run(EngineSpec s, long seed) {
        return Engine.run(s, seed, Long.MAX_VALUE, RunControl.NONE);
    }
}
