package dev.schedsim.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/v1/simulations} (api.md §1). Every field is nullable here: absent fields get
 * their defaults in {@link RequestValidator}, which writes the accepted request back with defaults filled in.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SimulationRequest(String name, TopologyRequest topology, KernelRequest kernel,
                                List<CgroupRequest> cgroups, List<WorkloadRequest> workloads, Long durationMs,
                                Long seed, Integer repetitions, List<VariantRequest> variants, Boolean trace) {

    /**
     * A preset or saved topology by name, or an explicit shape with optional hardware-model overrides.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TopologyRequest(String preset, Integer sockets, Integer numaNodesPerSocket, Integer llcsPerNumaNode,
                                  Integer coresPerLlc, Integer threadsPerCore, List<Integer> llcCores,
                                  HardwareRequest hardware) {
        boolean explicit() {
            return sockets != null || numaNodesPerSocket != null || llcsPerNumaNode != null || coresPerLlc != null
                    || threadsPerCore != null || llcCores != null || hardware != null;
        }
    }

    /** Overrides of {@link dev.schedsim.engine.topology.HardwareModel} defaults; absent fields keep them. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record HardwareRequest(List<Double> smtThroughput, List<Long> cacheRefillNsPerKb, Long shallowIdleExitNs,
                                  Long deepIdleExitNs, Long deepIdleResidencyNs, Double coreIdleWatts,
                                  Double deepIdleWatts, Double coreBusyWatts, Double smtThreadWatts,
                                  Long contextSwitchNs, Long updateCurrNs, Long bandwidthHookNs,
                                  Long idleScanPerCpuNs, Long balancePerCpuNs, Long blockedAveragesPerCfsRqNs,
                                  Long casBaseNs, Long casPerContenderNs, Long wakeKernelNs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record KernelRequest(String profile, Integer hz, Map<String, Boolean> features, Long bandwidthSliceUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CgroupRequest(String path, String cpuMax, Long cpuMaxBurst, Integer cpuWeight) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record WorkloadRequest(String name, String cgroup, String type, Integer threads, Integer nice, String cpus,
                                  Long workUs, Long runUs, Long sleepUs, Integer jitterPct, Integer pairs,
                                  Long serviceUs, Long thinkUs, Integer groups, Integer fdsPerGroup, Integer loops,
                                  Long messageUs, Integer messageThreads, Integer workersPerMessageThread,
                                  Long requestUs, Integer rps, List<SegmentRequest> segments,
                                  Integer cacheFootprintKb) {
    }

    /** One trace step: exactly one of {@code runUs} and {@code sleepUs}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SegmentRequest(Long runUs, Long sleepUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record VariantRequest(String label, KernelRequest kernel) {
    }
}
