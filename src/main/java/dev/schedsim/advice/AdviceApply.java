package dev.schedsim.advice;

import dev.schedsim.kubernetes.ContainerPatch;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Locale;

/**
 * The answer as what a user applies: cpu.max and cpu.max.burst as written to the cgroup (v2, and v1's files), how
 * a burst can be set today, and for a pod's container the patch, the kubectl command and the Helm values; and
 * removing the limit when that is the better answer (nothing in the search met the objective but no limit does,
 * or the smallest limit that meets it is the whole machine, where a limit no longer holds anything back).
 */
final class AdviceApply {
    private AdviceApply() {
    }

    /** What to apply; {@code kubernetes} only for a pod's container. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @Schema(name = "AdviceApply")
    public record Apply(@Schema(description = "cgroup v2 cpu.max: \"max\" when the limit is to go") String cpuMax,
                        @Schema(description = "cgroup v2 cpu.max.burst, µs") long cpuMaxBurst,
                        @Schema(description = "the same for cgroup v1's cpu controller") String cgroupV1,
                        @Schema(description = "how to set the burst today (null without one)") String burst,
                        @Schema(description = "for a pod's container: the patch of the object given, the kubectl "
                                + "command, the Helm values and the container's resources after it")
                        KubernetesPatch kubernetes) {
    }

    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @Schema(name = "AdviceApplyKubernetes")
    public record KubernetesPatch(String kind, String name, String namespace, String container,
                                  @Schema(description = "strategic-merge patch of the object given",
                                          implementation = java.util.Map.class)
                                  tools.jackson.databind.JsonNode patch,
                                  @Schema(description = "kubectl patch with that patch") String kubectl,
                                  @Schema(description = "a Helm chart's values: the container's resources block")
                                  String helmValues,
                                  @Schema(description = "the container's resources once patched",
                                          implementation = java.util.Map.class)
                                  tools.jackson.databind.JsonNode resources,
                                  java.util.List<String> notes) {
        static KubernetesPatch of(ContainerPatch.Patch p) {
            return p == null ? null : new KubernetesPatch(p.kind(), p.name(), p.namespace(), p.container(),
                    p.patch(), p.kubectl(), p.helmValues(), p.resources(), p.notes());
        }
    }

    /** The finished search's answer with what to apply. */
    static AdviceAnswer answer(AdviceSpec spec, AdviceSearch.State s, String currentCpuMax, long currentBurst) {
        AdviceAnswer a = AdviceAnswer.of(s, currentCpuMax, currentBurst);
        AdviceAnswer.Candidate unlimited = s.unlimited() == null ? null
                : AdviceAnswer.Candidate.of(s.unlimited(), "max", 0);
        AdviceAnswer.Recommendation rec = a.recommendation();
        AdviceAnswer.RemoveLimit remove = removeLimit(spec, rec, unlimited);
        String answer = remove != null ? "remove-limit" : rec != null ? "limit" : "none";
        Apply apply = null;
        String summary = a.summary();
        if (remove != null) {
            apply = apply(spec, null, 0, -1);
            summary = "Remove the limit: " + remove.why() + " " + remove.cost();
        } else if (rec != null) {
            apply = apply(spec, rec.cpuMax(), rec.cpuMaxBurst(), Long.parseLong(rec.limitsCpu().replace("m", "")));
        }
        ObservedAnswer observed = ObservedAnswer.of(spec, s);
        if (observed != null) {
            summary = summary + " " + observed.uncertainty();
        }
        return new AdviceAnswer(rec, a.current(), a.bracket(), a.candidates(), a.monotone(), a.steps(), summary,
                answer, unlimited, remove, apply, observed);
    }

    /** Removing the limit, when it is the better answer; null otherwise. */
    private static AdviceAnswer.RemoveLimit removeLimit(AdviceSpec spec, AdviceAnswer.Recommendation rec,
                                                        AdviceAnswer.Candidate unlimited) {
        if (unlimited == null || !unlimited.met()) {
            return null;
        }
        String why;
        if (rec == null) {
            why = "no limit in the search space met the objective, and without one it is met.";
        } else if (spec.nodeCpus() != null && rec.quotaUs() >= (long) spec.nodeCpus() * rec.periodUs()) {
            why = "the smallest limit that meets the objective, " + rec.limitsCpu() + ", is the whole machine ("
                    + spec.nodeCpus() + " CPUs): it would hold nothing back.";
        } else {
            return null;
        }
        String use = unlimited.usageCpus() == null ? "" : String.format(Locale.ROOT,
                " Without a limit it used %.2f CPUs on average here.", unlimited.usageCpus());
        String cost = "What it costs: the cgroup may then take any idle CPU of the machine, so its neighbours lose "
                + "the idle time they could have had and a runaway is no longer capped; under contention the "
                + "kernel still shares the CPUs by cpu.weight (a container's requests.cpu), so each neighbour keeps "
                + "its weighted share." + use + " A namespace whose ResourceQuota counts limits.cpu, or whose "
                + "LimitRange sets a default, will refuse or re-add it.";
        return new AdviceAnswer.RemoveLimit(why, cost);
    }

    /** What to apply for cpu.max {@code cpuMax} (null: no limit) with {@code burst}, at {@code millicores}. */
    private static Apply apply(AdviceSpec spec, String cpuMax, long burst, long millicores) {
        String v1;
        if (cpuMax == null) {
            v1 = "cpu.cfs_quota_us -1";
        } else {
            String[] qp = cpuMax.split(" ");
            v1 = "cpu.cfs_quota_us " + qp[0] + ", cpu.cfs_period_us " + qp[1]
                    + (burst > 0 ? ", cpu.cfs_burst_us " + burst : "");
        }
        String burstHow = burst <= 0 ? null : "No pod or container field sets a burst (kubernetes#104516): write "
                + burst + " to the container's cgroup (cgroup v2: cpu.max.burst; v1: cpu.cfs_burst_us), or have "
                + "the runtime do it (runc update --cpu-burst " + burst + " <container id>; the OCI spec's "
                + "linux.resources.cpu.burst). The kubelet does not keep it: a restarted container loses it, so "
                + "set it from a hook or an agent.";
        KubernetesPatch k = null;
        if (spec.container() != null) {
            tools.jackson.databind.JsonNode pod = spec.request().path("kubernetes").path("pod");
            k = KubernetesPatch.of(ContainerPatch.of(pod, spec.container(), millicores < 0 ? null : millicores));
        }
        return new Apply(cpuMax == null ? "max" : cpuMax, Math.max(0, burst), v1, burstHow, k);
    }
}
