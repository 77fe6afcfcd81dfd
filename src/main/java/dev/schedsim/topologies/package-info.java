/**
 * {@code /api/v1/topologies}: the presets, user-saved topologies (persisted, usable wherever a preset name is)
 * and how a request's {@code topology} resolves to an engine {@link dev.schedsim.engine.spec.TopologySpec}
 * ({@link dev.schedsim.topologies.Topologies}).
 */
package dev.schedsim.topologies;
