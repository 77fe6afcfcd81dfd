package dev.schedsim.advice;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.schedsim.request.SimulationRequest;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * {@code POST /api/v1/advice}: the simulation request whose cgroup limit is sought, the cgroup, the workload the
 * objective is about, the objective, the search space and the repetitions each setting is simulated with.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdviceRequest(
        @Schema(description = "a name of your own, [A-Za-z0-9._-]{1,64}", pattern = SimulationRequest.NAME_PATTERN)
        String name,
        @Schema(description = "the simulation request to size, as for POST /api/v1/simulations, without variants "
                + "or sweep (the advisor makes them); or give kubernetes instead") SimulationRequest request,
        @Schema(description = "instead of request: a pod, its node, its containers' workloads and the container "
                + "whose limits.cpu is sought; the pod cgroup's limit follows the container's when the kubelet "
                + "sets one") Kubernetes kubernetes,
        @Schema(description = "with kubernetes: the simulated time per run, ms (default 10000)", minimum = "1")
        Long durationMs,
        @Schema(description = "with kubernetes: the seed of the first repetition (default 42); repetition i uses "
                + "seed + i") Long seed,
        @Schema(description = "with kubernetes: runs of each step's simulation on the same machine before the "
                + "reported one, as a simulation request's warmup (default: none); with request, give "
                + "request.warmup; not with observed. Each warm-up run costs as much as the reported one, for every "
                + "candidate")
        SimulationRequest.WarmupRequest warmup,
        @Schema(description = "the cgroup whose cpu.max (and cpu.max.burst) is sought, one of the request's",
                example = "/web") String cgroup,
        @Schema(description = "the workload the latency and completion objectives are about (by name)",
                example = "web") String workload,
        @Schema(description = "every figure given must hold in every repetition") Objective objective,
        @Schema(description = "the settings to search") Search search,
        @Schema(description = "repetitions per setting, each with its own seed (default 2)", minimum = "1")
        Integer repetitions,
        @ArraySchema(arraySchema = @Schema(description = "instead of request or kubernetes: what cpu.stat or "
                + "cAdvisor showed, one or more windows (at most 8), possibly at different limits; the advisor "
                + "fits the workloads of the periodic family (threads threads, each running runUs then sleeping "
                + "sleepUs) that reproduce every window within its noise and sizes them all"))
        List<ObservedCounters.Posted> observed,
        @Schema(description = "with observed: the threads of the workload observed (the family's)", minimum = "1",
                maximum = "64", example = "3") Integer threads,
        @Schema(description = "with observed: the node the counters were read on")
        SimulationRequest.TopologyRequest topology) {

    /** Described: the request or the pod to size (not observed). */
    AdviceRequest(String name, SimulationRequest request, Kubernetes kubernetes, Long durationMs, Long seed,
                  String cgroup, String workload, Objective objective, Search search, Integer repetitions) {
        this(name, request, kubernetes, durationMs, seed, null, cgroup, workload, objective, search, repetitions, null,
                null, null);
    }

    /** A pod to size: the fields of a simulation request's kubernetes block, and the container. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Kubernetes(
            @Schema(description = "a Pod manifest, or a workload whose spec.template is used",
                    implementation = java.util.Map.class)
            tools.jackson.databind.JsonNode pod,
            @Schema(description = "the node") SimulationRequest.TopologyRequest topology,
            @Schema(description = "per container name, the workload it runs")
            java.util.Map<String, SimulationRequest.WorkloadRequest> workloads,
            @Schema(description = "the container runtime (default runc-1.3.2)") String runtime,
            @Schema(description = "the kubelet's cpuCFSQuotaPeriod (default 100ms)") String cpuCFSQuotaPeriod,
            @Schema(description = "the container whose limits.cpu is sought; without it every container of the "
                    + "pod is advised at once (one advice each, the others at their current limits)",
                    example = "web") String container) {
        Kubernetes withContainer(String name) {
            return new Kubernetes(pod, topology, workloads, runtime, cpuCFSQuotaPeriod, name);
        }
    }

    AdviceRequest withContainer(String container) {
        return new AdviceRequest(name, request, kubernetes.withContainer(container), durationMs, seed, warmup, cgroup,
                workload, objective, search, repetitions, null, null, null);
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Objective(
            @Schema(description = "a named objective instead of maxThrottledPeriodsPct: CPUThrottlingHigh (at most "
                    + "25 % of periods throttled, kube-prometheus' alert), throttled-10pct, throttled-1pct",
                    example = "CPUThrottlingHigh") String preset,
            @Schema(description = "at most this share of the cgroup's periods throttled, % (nr_throttled / "
                    + "nr_periods)", example = "5", minimum = "0") Double maxThrottledPeriodsPct,
            @Schema(description = "the workload's wakeup latency p99 at most, µs", minimum = "0")
            Double maxP99WakeupLatencyUs,
            @Schema(description = "the workload's request latency p99 at most, µs (schbench with rps)",
                    minimum = "0") Double maxP99RequestLatencyUs,
            @Schema(description = "the workload done within, µs of simulated time", minimum = "0")
            Double maxCompletionUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Search(
            @Schema(description = "quotas to search, µs: min and max (bisection between them)") Range quotaUs,
            @ArraySchema(arraySchema = @Schema(description = "periods to try, µs, each 1000..1000000 (default: the "
                    + "cgroup's, else 100000)"), schema = @Schema(minimum = "1000", maximum = "1000000"))
            List<Long> periodsUs,
            @ArraySchema(arraySchema = @Schema(description = "bursts to try, µs, each >= 0 (default [0]); a burst is "
                    + "tried only with quotas at least as large"), schema = @Schema(minimum = "0")) List<Long> burstsUs,
            @Schema(description = "how close the answer is to the smallest passing quota, µs (default 1000)",
                    minimum = "1") Long resolutionUs) {
    }

    @Schema(name = "QuotaRange")
    record Range(@Schema(description = "the smallest quota, µs (>= 1000)", example = "10000", minimum = "1000")
                 Long min,
                 @Schema(description = "the largest quota, µs (>= min)", example = "200000", minimum = "1000")
                 Long max) {
    }
}
