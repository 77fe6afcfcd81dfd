package dev.schedsim.advice;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.schedsim.http.Problem;
import dev.schedsim.http.RequestReader;
import dev.schedsim.json.Json;
import dev.schedsim.queue.SimulationStatus;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/** An advice as {@code GET /api/v1/advice/{id}} answers it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdviceView(@Schema(description = "the advice's id (a random UUID)", format = "uuid") String id,
                  String name, SimulationStatus status, Instant createdAt, Instant finishedAt,
                  @Schema(description = "share of the search done, 0..1", minimum = "0", maximum = "1")
                  double progress,
                  @Schema(description = "steps done (each one simulation)") int steps,
                  @Schema(description = "the simulation of the step in hand, or of the last", format = "uuid")
                  String simulation,
                  @Schema(description = "the answer in one sentence") String summary,
                  AdviceAnswer.Recommendation recommendation,
                  @Schema(description = "the request's own setting's figures") AdviceAnswer.Candidate current,
                  @Schema(description = "the largest quota tried below the answer, which failed") AdviceAnswer.Candidate bracket,
                  @Schema(description = "false when a larger quota failed where a smaller passed") Boolean monotone,
                  @Schema(description = "every setting tried, by period, burst and quota") List<AdviceAnswer.Candidate> candidates,
                  @Schema(description = "limit (the recommendation), remove-limit (removeLimit says why and what "
                          + "it costs) or none (nothing searched met the objective)") String answer,
                  @Schema(description = "the cgroup without a limit (cpu.max max)") AdviceAnswer.Candidate unlimited,
                  @Schema(description = "with answer remove-limit: why, and what it costs")
                  AdviceAnswer.RemoveLimit removeLimit,
                  @Schema(description = "the answer as what to apply: cpu.max, cpu.max.burst, and for a pod the "
                          + "patch, kubectl command and Helm values") AdviceApply.Apply apply,
                  @Schema(description = "with every container of a pod advised at once: each container's advice "
                          + "and, once all have answered, the one patch for all") AdvicePod.View pod,
                  @Schema(description = "an advice from observed counters, once SUCCEEDED: the family, the fit, the "
                          + "workloads sized and the answer's uncertainty (the range of their own answers)")
                  ObservedAnswer observed,
                  @Schema(description = "the accepted advice request", implementation = AdviceSpec.class)
                  @JsonRawValue String request,
                  @Schema(description = "why it FAILED", implementation = Problem.class) @JsonRawValue String error) {

    /** The advice as its row stands: the answer once SUCCEEDED, the steps from its search state. */
    static AdviceView of(Advice a, RequestReader reader, Advices advices) {
        AdviceAnswer answer = a.getAnswerJson() == null ? null
                : Json.REQUEST.readValue(a.getAnswerJson(), AdviceAnswer.class);
        AdviceSearch.State s = Json.REQUEST.readValue(a.getStateJson(), AdviceSearch.State.class);
        return new AdviceView(a.getId(), a.getName(), a.getStatus(), a.getCreatedAt(), a.getFinishedAt(),
                a.getProgress(), s.step(), a.getSimulationId(),
                answer == null ? null : answer.summary(), answer == null ? null : answer.recommendation(),
                answer == null ? null : answer.current(), answer == null ? null : answer.bracket(),
                answer == null ? null : answer.monotone(), answer == null ? null : answer.candidates(),
                answer == null ? null : answer.answer(), answer == null ? null : answer.unlimited(),
                answer == null ? null : answer.removeLimit(), answer == null ? null : answer.apply(),
                AdvicePod.view(a, advices), answer == null ? null : answer.observed(),
                a.getRequestJson(), a.getErrorJson());
    }
}
