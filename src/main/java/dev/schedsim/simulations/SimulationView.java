package dev.schedsim.simulations;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.schedsim.http.Problem;
import dev.schedsim.queue.SimulationJob;
import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.result.ResultDocument;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/**
 * A simulation as clients see it (docs/api.md, "The result"). {@code request}, {@code result} and {@code error} are the stored
 * JSON documents written out verbatim, so a result reads back byte for byte as it was produced; their schemas are
 * the records that wrote them (the accepted {@link SimulationRequest}, {@link ResultDocument}, a {@link Problem}).
 * List entries leave {@code request} and {@code result} out.
 */
public record SimulationView(
        @Schema(description = "the simulation's id (a random UUID)", format = "uuid",
                requiredMode = Schema.RequiredMode.REQUIRED) String id,
        @Schema(description = "the request's name, null when it gave none", types = {"string", "null"})
        String name,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) SimulationStatus status,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Instant createdAt,
        @Schema(description = "when a worker took its first run; null while QUEUED", types = {"string", "null"},
                format = "date-time") Instant startedAt,
        @Schema(description = "when it SUCCEEDED, FAILED or was CANCELLED; null before",
                types = {"string", "null"}, format = "date-time") Instant finishedAt,
        @Schema(description = "share of the simulated time done over all runs, 0..1", minimum = "0",
                maximum = "1") double progress,
        @Schema(description = "scheduler events simulated so far") long events,
        @Schema(description = "the accepted request: as submitted, with every default filled in (a list entry "
                + "leaves it out)", implementation = SimulationRequest.class)
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String request,
        @Schema(description = "the result document, once SUCCEEDED (byte for byte as stored, as GET "
                + ".../result serves it)", implementation = ResultDocument.class)
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String result,
        @Schema(description = "why it FAILED", implementation = Problem.class)
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String error) {

    /** The full view: the job with its result document (null until it SUCCEEDED). */
    static SimulationView of(SimulationJob j, String resultJson) {
        return new SimulationView(j.getId(), j.getName(), j.getStatus(), j.getCreatedAt(), j.getStartedAt(),
                j.getFinishedAt(), j.getProgress(), j.getEvents(), j.getRequestJson(), resultJson,
                j.getErrorJson());
    }

    static SimulationView summary(SimulationJob j) {
        return new SimulationView(j.getId(), j.getName(), j.getStatus(), j.getCreatedAt(), j.getStartedAt(),
                j.getFinishedAt(), j.getProgress(), j.getEvents(), null, null, j.getErrorJson());
    }
}
