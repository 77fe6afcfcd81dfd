package dev.schedsim.topologies;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.schedsim.request.SimulationRequest.TopologyRequest;
import dev.schedsim.request.SimulationRequest;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /api/v1/topologies}: a name (not a preset's), an optional description and an explicit
 * {@code topology} as in a simulation request.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record SavedTopologyRequest(
        @Schema(description = "[A-Za-z0-9._-]{1,64}, not a preset's", pattern = SimulationRequest.NAME_PATTERN)
        String name,
        String description, TopologyRequest topology) {
}
