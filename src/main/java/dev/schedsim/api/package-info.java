/**
 * The HTTP API (api.md): controllers, request and response records, request validation (every violation at
 * once, with field paths), RFC 9457 problem details and the OpenAPI examples. Maps accepted requests to engine
 * specs for the simulation workers ({@link dev.schedsim.simulation.SimulationPlanner}).
 */
package dev.schedsim.api;
