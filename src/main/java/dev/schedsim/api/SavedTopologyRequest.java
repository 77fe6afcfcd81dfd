package dev.schedsim.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.schedsim.api.SimulationRequest.TopologyRequest;

/**
 * The body of {@code POST /api/v1/topologies}: a name (not a preset's), an optional description and an explicit
 * {@code topology} as in a simulation request.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record SavedTopologyRequest(String name, String description, TopologyRequest topology) {
}
