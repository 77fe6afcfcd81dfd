package dev.schedsim.advice;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * An accepted advice request as the advisor reads it back from its row: the simulation request to size (JSON, as
 * accepted), the cgroup whose limit is sought, the workload the objective is about, the objective, the search
 * space and the repetitions each setting is simulated with. The API's request type writes the same fields.
 */
@Schema(name = "AcceptedAdvice", description = "an advice request as accepted: the simulation request to size "
        + "(for a pod, the one its cgroups and workloads became) and the search with every default filled in")
public record AdviceSpec(@Schema(types = {"string", "null"}) String name,
                         @Schema(ref = "#/components/schemas/SimulationRequest") JsonNode request,
                         String cgroup,
                         @Schema(description = "null without a latency or completion objective",
                                 types = {"string", "null"}) String workload,
                         Objective objective, Search search, int repetitions,
                         @Schema(description = "null unless a pod's cgroup is limited with the container",
                                 types = {"object", "null"}) Pod pod,
                         @Schema(description = "with a pod: the container sized", types = {"string", "null"})
                         String container,
                         @Schema(description = "the machine's CPUs: a limit of this many CPUs or more never binds",
                                 types = {"integer", "null"}) Integer nodeCpus,
                         @Schema(description = "with every container of a pod advised at once: each container's "
                                 + "advice", types = {"array", "null"}) java.util.List<Member> group,
                         @Schema(description = "an advice from observed counters: the fit and the workloads "
                                 + "sized", types = {"object", "null"}) Observed observed) {

    public AdviceSpec(String name, JsonNode request, String cgroup, String workload, Objective objective,
                      Search search, int repetitions, Pod pod, String container, Integer nodeCpus,
                      java.util.List<Member> group) {
        this(name, request, cgroup, workload, objective, search, repetitions, pod, container, nodeCpus, group, null);
    }

    /**
     * What an observed advice was fitted from and how, and the fitting workloads the search sizes (at most as
     * many as the first step's variants allow, spread over those that fit: {@code fitting} says how many did).
     */
    @Schema(name = "AcceptedAdviceObserved")
    public record Observed(ObservedFit.Result fit, List<ObservedFamily.Candidate> workloads, int fitting) {
    }

    /** The workloads sized at once (0: the request's one). */
    int workloads() {
        return observed == null ? 0 : observed.workloads().size();
    }

    /** One container's advice of a pod advised at once. */
    @Schema(name = "AcceptedAdviceMember")
    public record Member(String container, String id) {
    }

    AdviceSpec withGroup(java.util.List<Member> members) {
        return new AdviceSpec(name, request, cgroup, workload, objective, search, repetitions, pod, container,
                nodeCpus, members, observed);
    }

    /**
     * For a pod whose cgroup the kubelet limits to the sum of its containers' limits (ResourceConfigForPod): the
     * pod cgroup and the quota of its other containers, so that a candidate for the container moves the pod's
     * limit with it, as setting that container's limits.cpu would.
     */
    @Schema(name = "AcceptedAdvicePod")
    public record Pod(String cgroup, long otherQuotaUs) {
    }

    /** Every figure given must hold in every repetition; absent ones are not asked. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @Schema(name = "AcceptedAdviceObjective")
    public record Objective(Double maxThrottledPeriodsPct, Double maxP99WakeupLatencyUs,
                            Double maxP99RequestLatencyUs, Double maxCompletionUs,
                            @Schema(description = "the preset the throttled share came from, if named")
                            String preset) {
    }

    /** The quotas (min to max, in steps of resolutionUs), periods and bursts to search, µs. */
    @Schema(name = "AcceptedAdviceSearch")
    public record Search(Range quotaUs, List<Long> periodsUs, List<Long> burstsUs, long resolutionUs) {
    }

    @Schema(name = "AcceptedAdviceRange")
    public record Range(long min, long max) {
    }
}
