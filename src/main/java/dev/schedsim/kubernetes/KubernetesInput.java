package dev.schedsim.kubernetes;

import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest.CgroupRequest;
import dev.schedsim.request.SimulationRequest.KubernetesRequest;
import dev.schedsim.request.SimulationRequest.WorkloadRequest;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.topologies.Topologies;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules of a request's {@code kubernetes} block: the node, the pod's cgroup tree
 * ({@link PodCgroups}), each container's workload (by container name), the runtime and the kubelet's quota
 * period; the cgroups and workloads the request then runs, and the cAdvisor labels of each cgroup. The limits
 * advisor converts its pod with the same {@link #convert}.
 */
public final class KubernetesInput {
    static final String DEFAULT_RUNTIME = "runc-1.3.2";
    static final String DEFAULT_PERIOD = "100ms";
    /** A Go duration of one unit, as the kubelet's configuration writes cpuCFSQuotaPeriod. */
    private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|µs|ms|s)");

    private KubernetesInput() {
    }

    /**
     * A converted pod: the node, the cgroups (with defaults filled in, as the accepted request lists them), the
     * workloads (one per container, in the pod's order), the tree, the cAdvisor labels per cgroup path and the
     * block as accepted (defaults filled in).
     */
    public record Converted(SimulationRequest.TopologyRequest topology, Topologies.Resolved node,
                     List<CgroupRequest> cgroups, List<WorkloadRequest> workloads, PodCgroups.Tree tree,
                     Map<String, Map<String, String>> labels, KubernetesRequest accepted) {
    }

    /** Converts {@code k} (fields under {@code p}); null after adding the violations that stop it. */
    public static Converted convert(KubernetesRequest k, String p, Topologies topologies, Violations v) {
        Topologies.Resolved node = null;
        if (k.topology() == null) {
            v.add(p + ".topology", "required: the node, e.g. {\"preset\": \"validation-2c\"}");
        } else {
            node = topologies.resolve(k.topology(), p + ".topology", v);
        }
        String runtimeName = k.runtime() == null ? DEFAULT_RUNTIME : k.runtime();
        CpuConversions.Runtime runtime = PodCgroups.runtime(runtimeName);
        if (runtime == null) {
            v.add(p + ".runtime", "must be runc-X.Y.Z or crun-X.Y (e.g. runc-1.3.2, crun-1.23), got '"
                    + runtimeName + "'");
        }
        String periodText = k.cpuCFSQuotaPeriod() == null ? DEFAULT_PERIOD : k.cpuCFSQuotaPeriod();
        long periodUs = periodUs(periodText);
        if (periodUs < 0) {
            v.add(p + ".cpuCFSQuotaPeriod", "must be a duration of whole µs from 1ms to 1s (the kubelet's range), "
                    + "e.g. \"100ms\" or \"10ms\"; got '" + periodText + "'");
        }
        if (k.pod() == null) {
            v.add(p + ".pod", "required: a Pod manifest (or a Deployment with spec.template) as JSON");
            return null;
        }
        int cpus = node == null ? 1 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, node.cpuCount()));
        PodCgroups.Tree tree = PodCgroups.convert(k.pod(), p + ".pod", new PodCgroups.Options(
                periodUs < 0 ? CpuConversions.QUOTA_PERIOD_US : periodUs,
                runtime == null ? CpuConversions.Runtime.LINEAR : runtime, cpus));
        for (PodCgroups.Issue i : tree.issues()) {
            v.add(i.field(), i.message());
        }
        if (!tree.issues().isEmpty()) {
            return null;
        }
        List<CgroupRequest> cgroups = new ArrayList<>();
        Map<String, Map<String, String>> labels = new LinkedHashMap<>();
        for (PodCgroups.Cgroup c : tree.cgroups()) {
            cgroups.add(new CgroupRequest(c.path(), c.cpuMax(), 0L, (int) c.weight()));
            if (c.role().equals("pod")) {
                // The pod cgroup's series in the kubelet's /metrics/cadvisor: container="" beside pod and namespace.
                labels.put(c.path(), Map.of("namespace", tree.namespace(), "pod", tree.podName(), "container", ""));
            }
        }
        List<WorkloadRequest> workloads = new ArrayList<>();
        Map<String, WorkloadRequest> given = k.workloads() == null ? Map.of() : k.workloads();
        List<String> names = tree.containers().stream().map(PodCgroups.Container::name).toList();
        for (String name : given.keySet()) {
            if (tree.containerPath(name) == null) {
                v.add(p + ".workloads." + name, "no container '" + name + "' in the pod; its containers are "
                        + names);
            }
        }
        for (PodCgroups.Container c : tree.containers()) {
            labels.put(c.path(), Map.of("namespace", tree.namespace(), "pod", tree.podName(), "container",
                    c.name()));
            WorkloadRequest w = given.get(c.name());
            String f = p + ".workloads." + c.name();
            if (w == null) {
                v.add(f, "required: the workload container '" + c.name() + "' runs, e.g. {\"type\": \"periodic\", "
                        + "\"threads\": 2, \"runUs\": 2000, \"sleepUs\": 8000}");
                continue;
            }
            if (w.name() != null) {
                v.add(f + ".name", "leave it out: the workload is named after its container");
            }
            if (w.cgroup() != null) {
                v.add(f + ".cgroup", "leave it out: the workload runs in its container's cgroup (" + c.path() + ")");
            }
            workloads.add(new WorkloadRequest(c.name(), c.path(), w.type(), w.threads(), w.nice(), w.cpus(),
                    w.workUs(), w.runUs(), w.sleepUs(), w.jitterPct(), w.pairs(), w.serviceUs(), w.thinkUs(),
                    w.messageLines(), w.groups(), w.fdsPerGroup(), w.loops(), w.messageUs(), w.messageThreads(),
                    w.workersPerMessageThread(), w.requestUs(), w.rps(), w.segments(), w.cacheFootprintKb(), null, null,
                    null, null, null, null, null, null, w.runClock()));
        }
        KubernetesRequest accepted = new KubernetesRequest(k.pod(), k.topology(), k.workloads(), runtimeName,
                periodText);
        return new Converted(k.topology(), node, cgroups, workloads, tree, labels, accepted);
    }

    /**
     * A Go duration ("100ms", "10ms", "0.5s", "50000us") in whole µs within the kubelet's 1ms..1s; -1 when it
     * is not one.
     */
    static long periodUs(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            return -1;
        }
        BigDecimal n = new BigDecimal(m.group(1));
        BigDecimal us = switch (m.group(2)) {
            case "ns" -> n.movePointLeft(3);
            case "ms" -> n.movePointRight(3);
            case "s" -> n.movePointRight(6);
            default -> n;
        };
        if (us.stripTrailingZeros().scale() > 0 || us.compareTo(BigDecimal.valueOf(1_000)) < 0
                || us.compareTo(BigDecimal.valueOf(1_000_000)) > 0) {
            return -1;
        }
        return us.longValueExact();
    }
}
