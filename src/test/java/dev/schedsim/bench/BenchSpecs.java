package dev.schedsim.bench;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
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

    /**
     * The speed issue's large case: epyc-2s-64c-smt2-8ccx (256 CPUs), 64 cgroups each limited to 4 CPUs,
     * 1024 threads, a third each CPU-bound, periodic (2 ms / 8 ms) and request-response.
     */
    public static EngineSpec epyc64Groups(long durationUs) {
        TopologySpec topo = TopologyPresets.byName("epyc-2s-64c-smt2-8ccx").spec();
        KernelConfig k = KernelConfig.of(KernelProfiles.newest(), 250, new EnumMap<>(Feature.class), 5000);
        List<CgroupSpec> cg = new java.util.ArrayList<>();
        List<WorkloadSpec> w = new java.util.ArrayList<>();
        cg.add(CgroupSpec.unlimited("/", 100));
        for (int g = 0; g < 64; g++) {
            String path = "/pod" + g;
            cg.add(new CgroupSpec(path, 400_000, 100_000, 0, 100));
            switch (g % 3) {
                case 0:
                    w.add(WorkloadSpec.cpuBound("batch" + g, path, 16, 0));
                    break;
                case 1:
                    w.add(WorkloadSpec.periodic("web" + g, path, 16, 2_000, 8_000));
                    break;
                default:
                    w.add(WorkloadSpec.requestResponse("svc" + g, path, 8, 50, 20));
                    break;
            }
        }
        return new EngineSpec(topo, k, cg, w, durationUs, false);
    }

    /**
     * A hackbench on 224 CPUs (thunderx2-2n-28c-smt4, the seed tables' smallest machine): {@code groups} groups of
     * 20 senders and 20 receivers in the root group, {@code loops} loops, 2 µs per message; it ends when the last
     * receiver has read its messages, or at {@code durationUs}.
     */
    public static EngineSpec hackbench224(int groups, int loops, long durationUs) {
        KernelConfig k = KernelConfig.of(KernelProfiles.newest(), 250, new EnumMap<>(Feature.class), 5000);
        return new EngineSpec(TopologyPresets.byName("thunderx2-2n-28c-smt4").spec(), k,
                List.of(CgroupSpec.unlimited("/", 100)),
                List.of(WorkloadSpec.hackbench("hackbench", "/", groups, 20, loops, 2)), durationUs, false);
    }

    /** The real-kernel validation case "four150": validation-2c, 4 CPU-bound threads at 1.5 CPUs, 3 s. */
    public static EngineSpec validationFour150() {
        KernelConfig k = KernelConfig.of(KernelProfiles.byName("6.18"), 250, new EnumMap<>(Feature.class), 5000);
        return new EngineSpec(TopologyPresets.byName("validation-2c").spec(), k,
                List.of(CgroupSpec.unlimited("/", 100), CgroupSpec.unlimited("/parent", 100),
                        new CgroupSpec("/parent/child", 150_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.cpuBound("spin", "/parent/child", 4, 0)), 3_000_000, false);
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
