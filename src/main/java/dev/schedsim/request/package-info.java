/**
 * A simulation request and the plan it becomes (docs/api.md): the request records as the JSON reads,
 * the rules of each part (cgroups, workloads by type, rt-app phases, variants and sweeps), the limits, and the
 * typed plan ({@link dev.schedsim.request.SimulationPlan}) that is stored with the job and run by the workers.
 * No Spring web here: the endpoint is {@code simulations}, the conversions of pods and traces live in their own
 * packages and produce these records.
 */
package dev.schedsim.request;
