package dev.schedsim.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.kubernetes.CpuConversions.Runtime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The kubelet's and the runtimes' CPU conversions with the worked values of 100m, 250m, 500m, 1000m and 2500m, the
 * three QoS classes and the cgroup tree of a pod, each against the source line it mirrors (cited per test). The
 * expected numbers are worked by hand from those lines, not taken from this code.
 */
class PodCgroupsTests {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final PodCgroups.Options NODE = new PodCgroups.Options(100_000, Runtime.QUADRATIC, 2);

    /**
     * kubernetes pkg/kubelet/cm/helpers_linux.go MilliCPUToShares: {@code shares := (milliCPU * SharesPerCPU) /
     * MilliCPUToCPU}, at least MinShares (2): 100 × 1024 / 1000 = 102 (integer division), 256, 512, 1024, 2560.
     */
    @ParameterizedTest
    @CsvSource({"100, 102", "250, 256", "500, 512", "1000, 1024", "2500, 2560", "0, 2", "1, 2", "300000, 262144"})
    void milliCpuToShares(long milli, long shares) {
        assertThat(CpuConversions.milliCpuToShares(milli)).isEqualTo(shares);
    }

    /**
     * helpers_linux.go MilliCPUToQuota: {@code quota = (milliCPU * period) / MilliCPUToCPU}, "quota needs to be a
     * minimum of 1ms" (MinQuotaPeriod), 0 for no limit; over the 100 ms period and over a 10 ms cpuCFSQuotaPeriod.
     */
    @ParameterizedTest
    @CsvSource({"100, 100000, 10000", "250, 100000, 25000", "500, 100000, 50000", "1000, 100000, 100000",
        "2500, 100000, 250000", "5, 100000, 1000", "0, 100000, 0", "250, 10000, 2500", "50, 10000, 1000"})
    void milliCpuToQuota(long milli, long period, long quota) {
        assertThat(CpuConversions.milliCpuToQuota(milli, period)).isEqualTo(quota);
    }

    /**
     * The kubelet's weight of pod and QoS cgroups, cgroup_manager_linux.go cpuSharesToCPUWeight
     * {@code (((cpuShares - 2) * 9999) / 262142) + 1}: 102 → 4, 256 → 10, 512 → 20, 1024 → 39, 2560 → 98; and
     * runc before 1.3.2 (libcontainer/cgroups/utils.go ConvertCPUSharesToCgroupV2Value
     * {@code 1 + ((cpuShares-2)*9999)/262142}) gives the same.
     */
    @ParameterizedTest
    @CsvSource({"102, 4", "256, 10", "512, 20", "1024, 39", "2560, 98", "2, 1", "262144, 10000"})
    void theLinearFormulaOfTheKubeletAndOfOlderRuntimes(long shares, long weight) {
        assertThat(CpuConversions.cpuSharesToCpuWeight(shares)).isEqualTo(weight);
        assertThat(CpuConversions.convertCpuSharesToCgroupV2Value(shares, Runtime.LINEAR)).isEqualTo(weight);
    }

    /**
     * runc ≥ 1.3.2 (opencontainers/cgroups utils.go, fd95216) and crun ≥ 1.23 (cgroup-internal.h
     * convert_shares_to_weight, 4998c92): {@code ceil(10^((l*l + 125*l)/612 - 7/34))}, l = log2(shares): 102 → 17,
     * 256 → 35, 512 → 59, 1024 → 100 (the default maps to the default), 2560 → 208; the ends and the cases of
     * opencontainers/cgroups utils_test.go TestConvertCPUSharesToCgroupV2Value (3 → 2, 262143 → 10000, 0 stays
     * unset).
     */
    @ParameterizedTest
    @CsvSource({"102, 17", "256, 35", "512, 59", "1024, 100", "2560, 208", "2, 1", "1, 1", "3, 2",
        "262143, 10000", "262144, 10000", "0, 0"})
    void theQuadraticFormulaOfNewerRuntimes(long shares, long weight) {
        assertThat(CpuConversions.convertCpuSharesToCgroupV2Value(shares, Runtime.QUADRATIC)).isEqualTo(weight);
    }

    @Test
    void log2IsExactForPowersOfTwoAsGosIs() {
        assertThat(CpuConversions.log2(1024)).isEqualTo(10.0);
        assertThat(CpuConversions.log2(2)).isEqualTo(1.0);
        assertThat(CpuConversions.log2(3)).isBetween(1.58, 1.59);
    }

    @ParameterizedTest
    @CsvSource({"runc-1.3.1, LINEAR", "runc-1.3.2, QUADRATIC", "runc-1.4.0, QUADRATIC", "runc-1.2.9, LINEAR",
        "crun-1.22, LINEAR", "crun-1.23, QUADRATIC", "crun-1.23.1, QUADRATIC"})
    void theRuntimeSwitch(String name, Runtime runtime) {
        assertThat(PodCgroups.runtime(name)).isEqualTo(runtime);
        assertThat(PodCgroups.runtime("docker-27")).isNull();
    }

    /** apimachinery quantity.go: decimal and binary suffixes and exponents; MilliValue rounds up. */
    @ParameterizedTest
    @CsvSource({"500m, 500", "1, 1000", "2.5, 2500", "0.1, 100", "100m, 100", "1e3, 1000000", "5e-1, 500", "0.0001, 1",
        "2k, 2000000", "1Ki, 1024000", ".5, 500"})
    void quantities(String text, long milli) {
        assertThat(Quantity.parse(text).milliValue()).isEqualTo(milli);
    }

    @Test
    void malformedQuantitiesAreNotParsed() {
        for (String bad : new String[] {"", "m", "500 m", "half", "1.2.3", "5x", "1e", "0x10"}) {
            assertThat(Quantity.parse(bad)).as(bad).isNull();
        }
    }

    private static JsonNode pod(String containers) {
        return JSON.readTree("""
                { "apiVersion": "v1", "kind": "Pod", "metadata": { "name": "p", "uid": "u1" },
                  "spec": { "containers": %s } }""".formatted(containers));
    }

    /**
     * Guaranteed (qos.go: requests = limits for cpu and memory in every container): under /kubepods directly;
     * ResourceConfigForPod gives the pod the quota of its 2500m (250000 µs) and the shares of its request (2560 →
     * weight 98); the container the same quota and, with runc ≥ 1.3.2, weight 208.
     */
    @Test
    void aGuaranteedPod() {
        PodCgroups.Tree t = PodCgroups.convert(pod("""
                [ { "name": "app", "resources": { "limits": { "cpu": "2500m", "memory": "1Gi" } } } ]"""), "pod",
                NODE);
        assertThat(t.issues()).isEmpty();
        assertThat(t.qosClass()).isEqualTo(QosClass.GUARANTEED);
        assertThat(t.cgroups()).extracting(PodCgroups.Cgroup::path, PodCgroups.Cgroup::cpuMax,
                PodCgroups.Cgroup::weight).containsExactly(
                org.assertj.core.groups.Tuple.tuple("/kubepods", "max 100000", 79L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/podu1", "250000 100000", 98L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/podu1/app", "250000 100000", 208L));
    }

    /**
     * Burstable (a request below its limit): /kubepods/burstable with the shares of the pod's requests (250m +
     * 100m = 350m → 358 shares → weight 14); the pod has a quota only because every container has a limit
     * (500m + 1000m = 150000 µs); containers 250m → 256 shares → 35, 100m → 102 → 17 (quadratic), or 10 and 4 with
     * the linear formula of older runtimes.
     */
    @Test
    void aBurstablePodWithEveryLimitSet() {
        String containers = """
                [ { "name": "web", "resources": { "requests": { "cpu": "250m" }, "limits": { "cpu": "500m" } } },
                  { "name": "sidecar", "resources": { "requests": { "cpu": "100m" }, "limits": { "cpu": "1" } } } ]""";
        PodCgroups.Tree t = PodCgroups.convert(pod(containers), "pod", NODE);
        assertThat(t.qosClass()).isEqualTo(QosClass.BURSTABLE);
        assertThat(t.cgroups()).extracting(PodCgroups.Cgroup::path, PodCgroups.Cgroup::cpuMax,
                PodCgroups.Cgroup::weight).containsExactly(
                org.assertj.core.groups.Tuple.tuple("/kubepods", "max 100000", 79L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/burstable", "max 100000", 14L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/burstable/podu1", "150000 100000", 14L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/burstable/podu1/web", "50000 100000", 35L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/burstable/podu1/sidecar", "100000 100000", 17L));
        PodCgroups.Tree linear = PodCgroups.convert(pod(containers), "pod",
                new PodCgroups.Options(100_000, Runtime.LINEAR, 2));
        assertThat(linear.containers()).extracting(PodCgroups.Container::weight).containsExactly(10L, 4L);
    }

    /**
     * Burstable with one container unlimited: ResourceConfigForPod's cpuLimitsDeclared is false, so the pod
     * cgroup has no quota ("max") while the limited container keeps its own; the 10 ms cpuCFSQuotaPeriod is
     * every quota's period (500m → 5000 µs).
     */
    @Test
    void aBurstablePodWithAnUnlimitedContainerHasNoPodQuota() {
        PodCgroups.Tree t = PodCgroups.convert(pod("""
                [ { "name": "web", "resources": { "requests": { "cpu": "250m" }, "limits": { "cpu": "500m" } } },
                  { "name": "log", "resources": { "requests": { "cpu": "100m" } } } ]"""), "pod",
                new PodCgroups.Options(10_000, Runtime.QUADRATIC, 2));
        assertThat(t.qosClass()).isEqualTo(QosClass.BURSTABLE);
        assertThat(t.cgroups().get(2).cpuMax()).isEqualTo("max 10000");
        assertThat(t.cgroups().get(3).cpuMax()).isEqualTo("5000 10000");
        assertThat(t.cgroups().get(4).cpuMax()).isEqualTo("max 10000");
    }

    /**
     * BestEffort (no requests or limits): /kubepods/besteffort and the pod both MinShares (2 → weight 1,
     * qos_container_manager_linux.go "make sure best effort is always 2 shares"); the container MinShares → 1.
     */
    @Test
    void aBestEffortPod() {
        PodCgroups.Tree t = PodCgroups.convert(pod("[ { \"name\": \"batch\" } ]"), "pod", NODE);
        assertThat(t.qosClass()).isEqualTo(QosClass.BEST_EFFORT);
        assertThat(t.cgroups()).extracting(PodCgroups.Cgroup::path, PodCgroups.Cgroup::weight).containsExactly(
                org.assertj.core.groups.Tuple.tuple("/kubepods", 79L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/besteffort", 1L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/besteffort/podu1", 1L),
                org.assertj.core.groups.Tuple.tuple("/kubepods/besteffort/podu1/batch", 1L));
    }

    /**
     * qos.go: cpu requests equal to limits but no memory is Burstable (resourceQOS looks at cpu and memory); a
     * Guaranteed container beside a BestEffort one is Burstable ("If one container is BestEffort and another is
     * Guaranteed, the pod is Burstable"); "1" and "1000m" are the same quantity.
     */
    @Test
    void qosClassesFollowQosGo() {
        assertThat(PodCgroups.convert(pod("""
                [ { "name": "a", "resources": { "limits": { "cpu": "1" } } } ]"""), "pod", NODE).qosClass())
                .isEqualTo(QosClass.BURSTABLE);
        assertThat(PodCgroups.convert(pod("""
                [ { "name": "a", "resources": { "requests": { "cpu": "1000m", "memory": "1Gi" },
                                               "limits": { "cpu": "1", "memory": "1Gi" } } },
                  { "name": "b" } ]"""), "pod", NODE).qosClass()).isEqualTo(QosClass.BURSTABLE);
        assertThat(PodCgroups.convert(pod("""
                [ { "name": "a", "resources": { "requests": { "cpu": "1000m", "memory": "1Gi" },
                                               "limits": { "cpu": 1, "memory": "1024Mi" } } } ]"""), "pod", NODE)
                .qosClass()).isEqualTo(QosClass.GUARANTEED);
    }

    /** A Deployment's pod template; the pod takes the Deployment's name when the template has none. */
    @Test
    void aDeploymentGivesItsTemplate() {
        JsonNode deployment = JSON.readTree("""
                { "apiVersion": "apps/v1", "kind": "Deployment", "metadata": { "name": "api", "namespace": "prod" },
                  "spec": { "replicas": 3, "template": { "metadata": { "labels": { "app": "api" } },
                    "spec": { "containers": [ { "name": "api", "resources": { "limits": { "cpu": "100m" } } } ] } } } }""");
        PodCgroups.Tree t = PodCgroups.convert(deployment, "pod", NODE);
        assertThat(t.issues()).isEmpty();
        assertThat(t.podName()).isEqualTo("api");
        assertThat(t.namespace()).isEqualTo("prod");
        assertThat(t.containers().get(0).quotaUs()).isEqualTo(10_000);
        assertThat(t.containers().get(0).cpuShares()).isEqualTo(102);
        // The same manifest gets the same name-based uid.
        assertThat(PodCgroups.convert(deployment, "pod", NODE).uid()).isEqualTo(t.uid());
    }

    /** An init container larger than the app containers sets the pod's request (PodRequests' max). */
    @Test
    void anInitContainerCountsByTheMaxRule() {
        JsonNode p = JSON.readTree("""
                { "kind": "Pod", "metadata": { "name": "p", "uid": "u1" }, "spec": {
                  "initContainers": [ { "name": "migrate", "resources": { "requests": { "cpu": "2" }, "limits": { "cpu": "2" } } } ],
                  "containers": [ { "name": "app", "resources": { "requests": { "cpu": "500m" }, "limits": { "cpu": "1" } } } ] } }""");
        PodCgroups.Tree t = PodCgroups.convert(p, "pod", NODE);
        assertThat(t.cgroups()).extracting(PodCgroups.Cgroup::path).containsExactly("/kubepods",
                "/kubepods/burstable", "/kubepods/burstable/podu1", "/kubepods/burstable/podu1/app");
        assertThat(t.cgroups().get(2).cpuMax()).isEqualTo("200000 100000");
        assertThat(t.cgroups().get(2).weight()).isEqualTo(CpuConversions.cpuSharesToCpuWeight(2048));
    }

    @Test
    void badManifestsNameTheField() {
        assertThat(issues(pod("[]"))).containsExactly("pod.spec.containers");
        assertThat(issues(JSON.readTree("{ \"kind\": \"Pod\", \"metadata\": { \"name\": \"p\" }, \"spec\": {} }")))
                .containsExactly("pod.spec.containers");
        assertThat(issues(pod("[ { \"name\": \"a\", \"resources\": { \"limits\": { \"cpu\": \"half\" } } } ]")))
                .containsExactly("pod.spec.containers[0].resources.limits.cpu");
        assertThat(issues(pod("[ { \"name\": \"a\", \"resources\": { \"requests\": { \"cpu\": \"-1\" } } } ]")))
                .containsExactly("pod.spec.containers[0].resources.requests.cpu");
        assertThat(issues(pod("[ { \"name\": \"a\", \"resources\": { \"requests\": { \"cpu\": \"2\" }, "
                + "\"limits\": { \"cpu\": \"1\" } } } ]"))).containsExactly("pod.spec.containers[0].resources.requests.cpu");
        assertThat(issues(pod("[ { \"name\": \"A_b\" }, { \"name\": \"c\" }, { \"name\": \"c\" } ]")))
                .containsExactly("pod.spec.containers[0].name", "pod.spec.containers[2].name");
        assertThat(issues(JSON.readTree("{ \"kind\": \"Service\", \"metadata\": { \"name\": \"s\" }, "
                + "\"spec\": { \"containers\": [ { \"name\": \"a\" } ] } }"))).containsExactly("pod.kind");
        assertThat(issues(JSON.readTree("[1]"))).containsExactly("pod");
    }

    private static List<String> issues(JsonNode manifest) {
        return PodCgroups.convert(manifest, "pod", NODE).issues().stream().map(PodCgroups.Issue::field).toList();
    }
}
