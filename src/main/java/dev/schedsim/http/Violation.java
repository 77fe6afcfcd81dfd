package dev.schedsim.http;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One rule a request broke: the field path ({@code cgroups[1].cpuMax}, {@code kernel.features.FOO}) and why.
 */
public record Violation(
        @Schema(description = "the field's path in the request", example = "cgroups[0].cpuMax",
                requiredMode = Schema.RequiredMode.REQUIRED) String field,
        @Schema(description = "the rule it broke", example = "quota must be >= 1000 µs (1 ms)",
                requiredMode = Schema.RequiredMode.REQUIRED) String message) {
}
