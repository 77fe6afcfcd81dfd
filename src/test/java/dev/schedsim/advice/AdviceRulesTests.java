package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.request.CgroupRules;
import dev.schedsim.request.SimulationRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod's limit follows its container's: when the kubelet limits the pod cgroup to the sum of its containers'
 * limits (ResourceConfigForPod: every container has one), a candidate for one container keeps the others' share.
 */
class AdviceRulesTests {
    private static SimulationRequest pod(String podMax, String webMax, String sidecarMax) {
        String p = "/kubepods/pod0";
        return new SimulationRequest("x", null, null, List.of(
                new SimulationRequest.CgroupRequest("/kubepods", "max", 0L, 79),
                new SimulationRequest.CgroupRequest(p, podMax, 0L, 12),
                new SimulationRequest.CgroupRequest(p + "/web", webMax, 0L, 10),
                new SimulationRequest.CgroupRequest(p + "/sidecar", sidecarMax, 0L, 2)),
                List.of(), 1000L, null, null, null, null, null, null, null, null);
    }

    @Test
    void aGuaranteedPodsLimitKeepsTheOtherContainersShare() {
        // web 500m + sidecar 100m: the pod 600m
        AdviceSpec.Pod p = AdviceRules.podLimit(pod("60000 100000", "50000 100000", "10000 100000"),
                "/kubepods/pod0/web");
        assertThat(p.cgroup()).isEqualTo("/kubepods/pod0");
        assertThat(p.otherQuotaUs()).isEqualTo(10_000);
    }

    /** One reader of an accepted cpuMax for the advisor and the sweep: every form cpu.max takes. */
    @Test
    void cpuMaxReadsAsTheKernelTakesIt() {
        assertThat(CgroupRules.quotaOf("50000 100000")).isEqualTo(50_000);
        assertThat(CgroupRules.periodOf("50000 100000")).isEqualTo(100_000);
        assertThat(CgroupRules.quotaOf("20000")).isEqualTo(20_000);
        assertThat(CgroupRules.periodOf("20000")).isEqualTo(100_000);
        assertThat(CgroupRules.quotaOf("max 50000")).isEqualTo(-1);
        assertThat(CgroupRules.periodOf("max 50000")).isEqualTo(50_000);
        assertThat(CgroupRules.quotaOf("max")).isEqualTo(-1);
        assertThat(CgroupRules.quotaOf(null)).isEqualTo(-1);
        assertThat(CgroupRules.periodOf(null)).isEqualTo(100_000);
    }

    @Test
    void anUnlimitedPodCgroupIsLeftAlone() {
        assertThat(AdviceRules.podLimit(pod("max", "50000 100000", "max"), "/kubepods/pod0/web")).isNull();
    }
}
