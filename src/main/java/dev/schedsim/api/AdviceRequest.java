package dev.schedsim.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * {@code POST /api/v1/advice}: the simulation request whose cgroup limit is sought, the cgroup, the workload the
 * objective is about, the objective, the search space and the repetitions each setting is simulated with.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record AdviceRequest(
        @Schema(description = "a name of your own, [A-Za-z0-9._-]{1,64}") String name,
        @Schema(description = "the simulation request to size, as for POST /api/v1/simulations, without variants "
                + "or sweep (the advisor makes them)") SimulationRequest request,
        @Schema(description = "the cgroup whose cpu.max (and cpu.max.burst) is sought, one of the request's",
                example = "/web") String cgroup,
        @Schema(description = "the workload the latency and completion objectives are about (by name)",
                example = "web") String workload,
        @Schema(description = "every figure given must hold in every repetition") Objective objective,
        @Schema(description = "the settings to search") Search search,
        @Schema(description = "repetitions per setting, each with its own seed (default 2)") Integer repetitions) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Objective(
            @Schema(description = "at most this share of the cgroup's periods throttled, % (nr_throttled / "
                    + "nr_periods)", example = "5") Double maxThrottledPeriodsPct,
            @Schema(description = "the workload's wakeup latency p99 at most, µs") Double maxP99WakeupLatencyUs,
            @Schema(description = "the workload's request latency p99 at most, µs (schbench with rps)")
            Double maxP99RequestLatencyUs,
            @Schema(description = "the workload done within, µs of simulated time") Double maxCompletionUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Search(
            @Schema(description = "quotas to search, µs: min and max (bisection between them)") Range quotaUs,
            @Schema(description = "periods to try, µs (default: the cgroup's, else 100000)") List<Long> periodsUs,
            @Schema(description = "bursts to try, µs (default [0]); a burst is tried only with quotas at least as "
                    + "large") List<Long> burstsUs,
            @Schema(description = "how close the answer is to the smallest passing quota, µs (default 1000)")
            Long resolutionUs) {
    }

    record Range(@Schema(description = "the smallest quota, µs (>= 1000)", example = "10000") Long min,
                 @Schema(description = "the largest quota, µs", example = "200000") Long max) {
    }
}
