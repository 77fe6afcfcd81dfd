package dev.schedsim.advice;

import dev.schedsim.json.Json;
import dev.schedsim.kubernetes.ContainerPatch;
import dev.schedsim.queue.SimulationStatus;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every container of a pod advised at once: one advice per container (each sized with the others at their current
 * limits), and once all have answered one patch that sets every container's answer, as a user applies it.
 */
final class AdvicePod {
    private AdvicePod() {
    }

    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @Schema(name = "AdvicePod")
    public record View(@Schema(description = "RUNNING until every container's advice has ended, then SUCCEEDED "
                               + "if all did, else FAILED") SimulationStatus status,
                       List<Member> containers,
                       @Schema(description = "once all SUCCEEDED: the strategic-merge patch for every container "
                               + "answered", implementation = java.util.Map.class) JsonNode patch,
                       @Schema(description = "kubectl patch with that patch") String kubectl) {
    }

    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @Schema(name = "AdvicePodMember")
    public record Member(String container, String id, SimulationStatus status,
                         @Schema(description = "limit, remove-limit or none") String answer,
                         @Schema(description = "the answer's limits.cpu (null to remove it or without answer)")
                         String limitsCpu) {
    }

    /** The pod's view from any of its containers' advices; null for an advice of one container. */
    static View view(Advice a, Advices advices) {
        AdviceSpec spec = Json.STORED.readValue(a.getRequestJson(), AdviceSpec.class);
        if (spec.group() == null) {
            return null;
        }
        List<Member> members = new ArrayList<>();
        List<AdviceApply.KubernetesPatch> patches = new ArrayList<>();
        boolean running = false;
        boolean failed = false;
        for (AdviceSpec.Member m : spec.group()) {
            Advice x = m.id().equals(a.getId()) ? a : advices.findById(m.id()).orElse(null);
            SimulationStatus st = x == null ? SimulationStatus.FAILED : x.getStatus();
            AdviceAnswer ans = x == null || x.getAnswerJson() == null ? null
                    : Json.STORED.readValue(x.getAnswerJson(), AdviceAnswer.class);
            running |= st == SimulationStatus.RUNNING;
            failed |= st != SimulationStatus.RUNNING && st != SimulationStatus.SUCCEEDED;
            String limits = ans == null || ans.recommendation() == null || "remove-limit".equals(ans.answer()) ? null
                    : ans.recommendation().limitsCpu();
            members.add(new Member(m.container(), m.id(), st, ans == null ? null : ans.answer(), limits));
            if (ans != null && ans.apply() != null && ans.apply().kubernetes() != null) {
                patches.add(ans.apply().kubernetes());
            }
        }
        SimulationStatus status = running ? SimulationStatus.RUNNING
                : failed ? SimulationStatus.FAILED : SimulationStatus.SUCCEEDED;
        if (status != SimulationStatus.SUCCEEDED || patches.isEmpty()) {
            return new View(status, members, null, null);
        }
        JsonNode patch = combined(patches);
        AdviceApply.KubernetesPatch p = patches.get(0);
        return new View(status, members, patch, ContainerPatch.command(p.kind(), p.name(), p.namespace(), patch));
    }

    /** The containers' patches as one: each names its container in the same containers list. */
    private static JsonNode combined(List<AdviceApply.KubernetesPatch> patches) {
        ObjectNode out = (ObjectNode) patches.get(0).patch().deepCopy();
        ArrayNode containers = (ArrayNode) out.findParent("containers").path("containers");
        for (int i = 1; i < patches.size(); i++) {
            patches.get(i).patch().findParent("containers").path("containers").forEach(containers::add);
        }
        return out;
    }
}
