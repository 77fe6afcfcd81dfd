/**
 * The engine's input: what a simulation is, as plain records the service builds from a request — the machine
 * ({@link dev.schedsim.engine.spec.TopologySpec} with its {@link dev.schedsim.engine.spec.HardwareModel} and the
 * {@link dev.schedsim.engine.spec.TopologyPresets}), the kernel ({@link dev.schedsim.engine.spec.KernelConfig}
 * from a {@link dev.schedsim.engine.spec.KernelProfile} and {@link dev.schedsim.engine.spec.Feature} switches),
 * the cgroups ({@link dev.schedsim.engine.spec.CgroupSpec}) and the workloads
 * ({@link dev.schedsim.engine.spec.WorkloadSpec}). Public, with {@code engine} itself the only engine packages
 * the rest of the service may use.
 */
package dev.schedsim.engine.spec;
