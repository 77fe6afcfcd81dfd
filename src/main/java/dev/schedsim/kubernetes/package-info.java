/**
 * A Kubernetes pod as the cgroup v2 tree the kubelet and the container runtime make for it: the QoS class
 * ({@link dev.schedsim.kubernetes.QosClass}), quantities ({@link dev.schedsim.kubernetes.Quantity}), the kubelet's
 * and the runtimes' CPU conversions ({@link dev.schedsim.kubernetes.CpuConversions}) and the tree
 * ({@link dev.schedsim.kubernetes.PodCgroups}). Each class names the Kubernetes, runc or crun function it mirrors.
 * Plain Java over a Jackson tree: no Spring, so that the simulation request and the limits advisor share it.
 */
package dev.schedsim.kubernetes;
