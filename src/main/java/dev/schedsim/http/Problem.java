package dev.schedsim.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The schema of every error body (RFC 9457 problem details, {@code application/problem+json}) and of a failed
 * simulation's or advice's {@code error}: the members {@link ProblemHandlers}, the security filters'
 * {@code ProblemResponses}, the container's error pages and the workers' stored problems write. Only the OpenAPI
 * document uses this record; the bodies are Spring's {@code ProblemDetail} or the same members written by hand.
 */
@Schema(name = "ProblemDetail", description = "An RFC 9457 problem: type, title, status and detail always; "
        + "errors for the invalid or over-limit fields; limit, value (and requested) for a limit that was hit")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(
        @Schema(description = "the problem type, a URI under https://schedsim.dev/problems/",
                example = "https://schedsim.dev/problems/validation", format = "uri",
                requiredMode = Schema.RequiredMode.REQUIRED) String type,
        @Schema(description = "a short summary of the problem type", example = "Invalid request",
                requiredMode = Schema.RequiredMode.REQUIRED) String title,
        @Schema(description = "the HTTP status code (for a stored error: the status the failure stands for)",
                minimum = "400", maximum = "599", example = "400", requiredMode = Schema.RequiredMode.REQUIRED)
        Integer status,
        @Schema(description = "what went wrong in this occurrence", requiredMode = Schema.RequiredMode.REQUIRED)
        String detail,
        @Schema(description = "the request path", example = "/api/v1/simulations", format = "uri-reference")
        String instance,
        @Schema(description = "every field that broke a rule (validation) or a limit (limit-exceeded)")
        List<Violation> errors,
        @Schema(description = "the setting whose limit was hit, e.g. schedsim.limits.max-cpus")
        String limit,
        @Schema(description = "that setting's value") Long value,
        @Schema(description = "what the request needed of it (limit-exceeded)") Long requested) {
}
