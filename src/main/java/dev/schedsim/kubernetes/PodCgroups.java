package dev.schedsim.kubernetes;

import dev.schedsim.kubernetes.CpuConversions.Runtime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A pod manifest as the cgroup v2 tree a node makes for it with the cgroupfs driver: {@code /kubepods} (node
 * allocatable), the QoS cgroup ({@code /kubepods/burstable} or {@code /kubepods/besteffort}; Guaranteed pods sit
 * under {@code /kubepods} itself), {@code pod<uid>} with ResourceConfigForPod's limits, and one cgroup per app
 * container (the runtime names it after the container id; here after the container's name) with the CRI
 * resources the kubelet's calculateLinuxResources gives the runtime.
 *
 * <p>Read from the manifest: {@code metadata.name}, {@code namespace}, {@code uid}; {@code spec.containers} and
 * {@code spec.initContainers} with {@code resources.requests} / {@code limits} of cpu and memory;
 * {@code spec.overhead}. A Deployment, ReplicaSet, StatefulSet, DaemonSet or Job gives its
 * {@code spec.template}. Everything else in the manifest is left alone. Not modelled (an issue says so): sidecar
 * init containers ({@code restartPolicy: Always}) and pod-level {@code spec.resources}.
 */
public final class PodCgroups {
    /** DNS-1123 label: what the API server takes as a container name. */
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern UID = Pattern.compile("[A-Za-z0-9._-]{1,128}");
    private static final Set<String> TEMPLATE_KINDS = Manifests.TEMPLATE_KINDS;

    private PodCgroups() {
    }

    /**
     * The node's settings the tree depends on.
     *
     * @param periodUs the kubelet's cpuCFSQuotaPeriod in µs (its CPUCFSQuotaPeriod gate on), or
     *                 {@link CpuConversions#QUOTA_PERIOD_US}
     * @param runtime  how the container runtime turns shares into cpu.weight
     * @param nodeCpus the node's CPUs: node allocatable's cpu (no reservations)
     */
    public record Options(long periodUs, Runtime runtime, int nodeCpus) {
    }

    /** What the manifest says of one container, after the API server's defaulting of requests to limits. */
    record ContainerResources(String name, Quantity cpuRequest, Quantity cpuLimit, Quantity memoryRequest,
                              Quantity memoryLimit) {
    }

    /** A cgroup of the tree: cpu.max quota (-1 for max) and period, cpu.weight, and what it stands for. */
    public record Cgroup(String path, long quotaUs, long periodUs, long weight, String role) {
        /** As written to cpu.max. */
        public String cpuMax() {
            return (quotaUs < 0 ? "max" : Long.toString(quotaUs)) + " " + periodUs;
        }
    }

    /** An app container: its cgroup and the CRI values behind it. */
    public record Container(String name, String path, long cpuShares, long quotaUs, long weight) {
    }

    /** A problem with the manifest: the field (under the caller's prefix) and how to fix it. */
    public record Issue(String field, String message) {
    }

    /** The tree, parents first; {@code issues} empty when the manifest converted. */
    public record Tree(String namespace, String podName, String uid, QosClass qosClass, List<Cgroup> cgroups,
                       List<Container> containers, List<Issue> issues) {
        /** The cgroup of the container named {@code name}, or null. */
        public String containerPath(String name) {
            for (Container c : containers) {
                if (c.name().equals(name)) {
                    return c.path();
                }
            }
            return null;
        }
    }

    /** Converts {@code manifest} (a Pod or a workload with a pod template); issues are named under {@code field}. */
    public static Tree convert(JsonNode manifest, String field, Options options) {
        List<Issue> issues = new ArrayList<>();
        Manifests.Located located = Manifests.locate(manifest, field);
        if (located.issue() != null) {
            issues.add(located.issue());
            return new Tree(null, null, null, null, List.of(), List.of(), issues);
        }
        manifest = located.object();
        field = located.field();
        JsonNode metadata = manifest.path("metadata");
        JsonNode spec = manifest.path("spec");
        String specField = field + ".spec";
        String kind = manifest.path("kind").asString("");
        if (TEMPLATE_KINDS.contains(kind) || kind.isEmpty() && spec.has("template")) {
            JsonNode template = spec.path("template");
            String name = template.path("metadata").path("name").asString("");
            metadata = name.isEmpty() ? metadata : template.path("metadata");
            spec = template.path("spec");
            specField = field + ".spec.template.spec";
        } else if (!kind.isEmpty() && !kind.equals("Pod")) {
            issues.add(new Issue(field + ".kind", "'" + kind + "' has no pod to simulate; give a Pod or one of "
                    + new java.util.TreeSet<>(TEMPLATE_KINDS) + " (their spec.template)"));
        }
        String podName = metadata.path("name").asString("");
        if (podName.isEmpty()) {
            issues.add(new Issue(field + ".metadata.name", "required: the pod's name (its cAdvisor label)"));
        }
        String namespace = metadata.path("namespace").asString("default");
        String uid = metadata.path("uid").asString("");
        if (uid.isEmpty()) {
            // A pod's uid is the API server's; without one the same manifest gets the same name-based uid.
            uid = UUID.nameUUIDFromBytes((namespace + "/" + podName).getBytes(StandardCharsets.UTF_8)).toString();
        } else if (!UID.matcher(uid).matches()) {
            issues.add(new Issue(field + ".metadata.uid", "must match [A-Za-z0-9._-]{1,128} (a UUID)"));
        }
        if (spec.has("resources")) {
            issues.add(new Issue(specField + ".resources", "pod-level resources (PodLevelResources) are not "
                    + "modelled; give each container's resources"));
        }
        Set<String> names = new HashSet<>();
        List<ContainerResources> containers = containers(spec.path("containers"), specField + ".containers", true,
                names, issues);
        List<ContainerResources> inits = containers(spec.path("initContainers"), specField + ".initContainers",
                false, names, issues);
        JsonNode overheadNode = spec.path("overhead");
        Quantity overhead = quantity(overheadNode.path("cpu"), specField + ".overhead.cpu", issues);
        if (!issues.isEmpty()) {
            return new Tree(namespace, podName, uid, null, List.of(), List.of(), issues);
        }
        return tree(namespace, podName, uid, containers, inits, overhead, options);
    }

    private static Tree tree(String namespace, String podName, String uid, List<ContainerResources> containers,
                             List<ContainerResources> inits, Quantity overhead, Options o) {
        List<ContainerResources> all = new ArrayList<>(inits);
        all.addAll(containers);
        QosClass qos = QosClass.computePodQos(all);
        long overheadMilli = overhead == null ? 0 : overhead.milliValue();
        // component-helpers resource.PodRequests / PodLimits: the app containers' sum, or the largest init
        // container's when that is more (they run one at a time, before the app containers); plus the overhead
        // (for limits only where a limit was summed).
        long requests = saturated(Math.max(sum(containers, true), max(inits, true)), overheadMilli);
        long limitSum = Math.max(sum(containers, false), max(inits, false));
        long limits = limitSum == 0 ? 0 : saturated(limitSum, overheadMilli);
        // ResourceConfigForPod's cpuLimitsDeclared: every container, init ones included, has a CPU limit.
        boolean cpuLimitsDeclared = all.stream().allMatch(c -> c.cpuLimit() != null && !c.cpuLimit().isZero());

        List<Cgroup> cgroups = new ArrayList<>();
        // /kubepods: the node allocatable cgroup (node_container_manager_linux.go createNodeAllocatableCgroups,
        // getCgroupConfig: shares from allocatable cpu, no quota).
        cgroups.add(new Cgroup("/kubepods", -1, CpuConversions.QUOTA_PERIOD_US,
                CpuConversions.cpuSharesToCpuWeight(CpuConversions.milliCpuToShares(o.nodeCpus() * 1000L)),
                "kubepods"));
        String parent = "/kubepods";
        // qos_container_manager_linux.go setCPUCgroupConfig: besteffort always MinShares; burstable the shares of
        // its pods' requests (this pod's alone here).
        if (qos == QosClass.BURSTABLE) {
            parent = "/kubepods/burstable";
            cgroups.add(new Cgroup(parent, -1, CpuConversions.QUOTA_PERIOD_US,
                    CpuConversions.cpuSharesToCpuWeight(CpuConversions.milliCpuToShares(requests)), "qos"));
        } else if (qos == QosClass.BEST_EFFORT) {
            parent = "/kubepods/besteffort";
            cgroups.add(new Cgroup(parent, -1, CpuConversions.QUOTA_PERIOD_US,
                    CpuConversions.cpuSharesToCpuWeight(CpuConversions.MIN_SHARES), "qos"));
        }
        // helpers_linux.go ResourceConfigForPod: Guaranteed gets shares and quota; Burstable shares, and the quota
        // only when every container declared a CPU limit; BestEffort MinShares.
        String podPath = parent + "/pod" + uid;
        long podShares = qos == QosClass.BEST_EFFORT ? CpuConversions.MIN_SHARES
                : CpuConversions.milliCpuToShares(requests);
        boolean podQuota = qos == QosClass.GUARANTEED || qos == QosClass.BURSTABLE && cpuLimitsDeclared;
        long podQuotaUs = podQuota ? CpuConversions.milliCpuToQuota(limits, o.periodUs()) : 0;
        cgroups.add(new Cgroup(podPath, podQuotaUs == 0 ? -1 : podQuotaUs, o.periodUs(),
                CpuConversions.cpuSharesToCpuWeight(podShares), "pod"));

        List<Container> out = new ArrayList<>();
        for (ContainerResources c : containers) {
            // kuberuntime_container_linux.go calculateLinuxResources: shares from the request (from the limit
            // when only that is given), quota from the limit (0: none) over the kubelet's period; the runtime
            // then writes cpu.weight with its own conversion.
            long milliRequest = c.cpuRequest() == null && c.cpuLimit() != null ? c.cpuLimit().milliValue()
                    : c.cpuRequest() == null ? 0 : c.cpuRequest().milliValue();
            long shares = CpuConversions.milliCpuToShares(milliRequest);
            long quota = CpuConversions.milliCpuToQuota(c.cpuLimit() == null ? 0 : c.cpuLimit().milliValue(),
                    o.periodUs());
            long weight = CpuConversions.convertCpuSharesToCgroupV2Value(shares, o.runtime());
            String path = podPath + "/" + c.name();
            cgroups.add(new Cgroup(path, quota == 0 ? -1 : quota, o.periodUs(), weight, "container"));
            out.add(new Container(c.name(), path, shares, quota == 0 ? -1 : quota, weight));
        }
        return new Tree(namespace, podName, uid, qos, cgroups, out, List.of());
    }

    /** a + b for non-negative amounts, Long.MAX_VALUE where that overflows. */
    private static long saturated(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    private static long sum(List<ContainerResources> list, boolean requests) {
        long s = 0;
        for (ContainerResources c : list) {
            Quantity q = requests ? c.cpuRequest() : c.cpuLimit();
            // Saturating, like Quantity.milliValue() for one value: requests of "9999999999999999" in two
            // containers are as unschedulable as one, not a 500 (overflow); shares and quota clamp them anyway.
            s = saturated(s, q == null ? 0 : q.milliValue());
        }
        return s;
    }

    private static long max(List<ContainerResources> list, boolean requests) {
        long m = 0;
        for (ContainerResources c : list) {
            Quantity q = requests ? c.cpuRequest() : c.cpuLimit();
            m = Math.max(m, q == null ? 0 : q.milliValue());
        }
        return m;
    }

    private static List<ContainerResources> containers(JsonNode list, String field, boolean app, Set<String> names,
                                                       List<Issue> issues) {
        List<ContainerResources> out = new ArrayList<>();
        if (list.isMissingNode() || list.isNull()) {
            if (app) {
                issues.add(new Issue(field, "required: a pod has at least one container"));
            }
            return out;
        }
        if (!list.isArray() || app && list.isEmpty()) {
            issues.add(new Issue(field, app ? "must list at least one container" : "must be a list"));
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            String f = field + "[" + i + "]";
            JsonNode c = list.get(i);
            String name = c.path("name").asString("");
            if (!DNS_LABEL.matcher(name).matches()) {
                issues.add(new Issue(f + ".name", "required: a DNS label ([a-z0-9-], at most 63 characters)"));
            } else if (!names.add(name)) {
                issues.add(new Issue(f + ".name", "duplicate container name '" + name + "'"));
            }
            if (!app && "Always".equals(c.path("restartPolicy").asString(""))) {
                issues.add(new Issue(f + ".restartPolicy", "sidecar init containers are not modelled; list it "
                        + "under containers"));
            }
            JsonNode resources = c.path("resources");
            unknownResourceFields(resources, f + ".resources", issues);
            Quantity cpuLimit = quantity(resources.path("limits").path("cpu"), f + ".resources.limits.cpu", issues);
            Quantity memLimit = quantity(resources.path("limits").path("memory"), f + ".resources.limits.memory",
                    issues);
            Quantity cpuRequest = quantity(resources.path("requests").path("cpu"), f + ".resources.requests.cpu",
                    issues);
            Quantity memRequest = quantity(resources.path("requests").path("memory"),
                    f + ".resources.requests.memory", issues);
            // pkg/apis/core/v1/defaults.go SetDefaults_Pod: "If limits are specified, but requests are not,
            // default requests to limits".
            cpuRequest = cpuRequest == null ? cpuLimit : cpuRequest;
            memRequest = memRequest == null ? memLimit : memRequest;
            if (cpuRequest != null && cpuLimit != null && cpuRequest.milliValue() > cpuLimit.milliValue()) {
                issues.add(new Issue(f + ".resources.requests.cpu", "must be less than or equal to the cpu limit ("
                        + cpuLimit + ")"));
            }
            out.add(new ContainerResources(name, cpuRequest, cpuLimit, memRequest, memLimit));
        }
        return out;
    }

    /** ResourceRequirements' fields, and the resource names of requests and limits that matter here. */
    private static final List<String> RESOURCE_FIELDS = List.of("limits", "requests", "claims");
    private static final List<String> RESOURCE_NAMES = List.of("cpu", "memory", "ephemeral-storage");

    /**
     * A misspelt field under resources ("limit", "request", "cpus") would silently leave the container unlimited,
     * which the API server refuses (strict decoding): named with the field meant.
     */
    private static void unknownResourceFields(JsonNode resources, String field, List<Issue> issues) {
        for (String k : resources.propertyNames()) {
            if (!RESOURCE_FIELDS.contains(k)) {
                issues.add(new Issue(field + "." + k, "unknown field" + didYouMean(k, RESOURCE_FIELDS)
                        + " (a container's resources has " + RESOURCE_FIELDS + ")"));
            }
        }
        for (String section : List.of("limits", "requests")) {
            for (String k : resources.path(section).propertyNames()) {
                String hint = didYouMean(k, RESOURCE_NAMES);
                if (!RESOURCE_NAMES.contains(k) && !hint.isEmpty()) {
                    issues.add(new Issue(field + "." + section + "." + k, "unknown resource" + hint));
                }
            }
        }
    }

    /** "; did you mean 'x'?" for a name one or two edits (or a plural) from a known one; else "". */
    private static String didYouMean(String given, List<String> known) {
        for (String k : known) {
            if (given.equalsIgnoreCase(k + "s") || k.equalsIgnoreCase(given + "s") || edits(given, k) <= 2) {
                return "; did you mean '" + k + "'?";
            }
        }
        return "";
    }

    private static int edits(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                d[i][j] = i == 0 ? j : j == 0 ? i : Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1),
                        d[i - 1][j - 1] + (Character.toLowerCase(a.charAt(i - 1))
                                == Character.toLowerCase(b.charAt(j - 1)) ? 0 : 1));
            }
        }
        return d[a.length()][b.length()];
    }

    /** A quantity field (a string such as "500m", or a number), null when absent; an issue when malformed. */
    private static Quantity quantity(JsonNode node, String field, List<Issue> issues) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        String text = node.isNumber() ? node.decimalValue().toPlainString() : node.isString() ? node.asString()
                : null;
        Quantity q = Quantity.parse(text);
        if (q == null) {
            issues.add(new Issue(field, "not a quantity: " + abbreviate(String.valueOf(node))
                    + "; write it as Kubernetes does, e.g. \"500m\", \"1\", \"2.5\" (CPUs) or \"128Mi\""));
            return null;
        }
        if (q.negative()) {
            issues.add(new Issue(field, "must be >= 0, got " + text));
            return null;
        }
        return q;
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    /** The {@link Runtime} a request names: "runc-1.3.2", "crun-1.22", ... (null when it is neither). */
    public static Runtime runtime(String name) {
        java.util.regex.Matcher m = Pattern.compile("(runc|crun)-([0-9]{1,6})\\.([0-9]{1,6})(?:\\.([0-9]{1,6}))?").matcher(name);
        if (!m.matches()) {
            return null;
        }
        int[] v = {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
            m.group(4) == null ? 0 : Integer.parseInt(m.group(4))};
        int[] since = m.group(1).equals("runc") ? new int[] {1, 3, 2} : new int[] {1, 23, 0};
        return java.util.Arrays.compare(v, since) >= 0 ? Runtime.QUADRATIC : Runtime.LINEAR;
    }

}
