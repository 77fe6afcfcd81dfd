/**
 * kernel/sched/topology.c: the built machine — each CPU's core, LLC, node and socket and its scheduling-domain
 * levels ({@link dev.schedsim.engine.topology.Topology}, {@link dev.schedsim.engine.topology.DomainLevel}) — and the
 * state CPUs share through their domains: {@code struct sched_domain_shared} of each LLC and the root domain.
 */
package dev.schedsim.engine.topology;
