package dev.schedsim.reports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.result.ResultDocument;
import org.junit.jupiter.api.Test;

/** The report's words for a cgroup and its numbers: each kind of verdict, and the units the tables use. */
class CgroupVerdictTests {
    private static ResultDocument.CpuStat stat(double usage, double periods, double throttled, double throttledUs,
                                               double bursts, double burstUs) {
        return new ResultDocument.CpuStat(usage, periods, throttled, throttledUs, bursts, burstUs);
    }

    private static final CgroupSpec HALF = new CgroupSpec("/b", 50_000, 100_000, 0, 100);

    @Test
    void verdicts() {
        // the README's first simulation: /b at 0.5 CPU throttled in every period
        assertThat(CgroupVerdict.of("/b", HALF, stat(1_015_958, 20, 20, 1_032_046, 0, 0), 2_000_000, 0.012))
                .isEqualTo("/b: throttled in 20 of 20 periods at 0.50 CPU (cpu.max 50000 100000), 1032 ms in all "
                        + "(summed over its CPUs): its quota is what holds it back; it used 0.51 CPU. Without the "
                        + "limit it would have used at most 1.02 CPUs (its use plus its throttled time); the machine "
                        + "had 0.01 CPU idle on average.");
        assertThat(CgroupVerdict.of("/b", HALF, stat(600_000, 20, 3, 12_000, 0, 0), 2_000_000, Double.NaN))
                .startsWith("/b: throttled in 3 of 20 periods").contains("12 ms in all")
                .contains("exceeds the quota now and then; it used 0.30 CPU on average.")
                .endsWith("it would have used at most 0.31 CPU (its use plus its throttled time).");
        assertThat(CgroupVerdict.of("/b", HALF, stat(400_000, 20, 0, 0, 0, 0), 2_000_000, Double.NaN))
                .isEqualTo("/b: never throttled in 20 periods at 0.50 CPU (cpu.max 50000 100000); it used 0.20 CPU "
                        + "(40 % of its quota).");
        assertThat(CgroupVerdict.of("/a", CgroupSpec.unlimited("/a", 200), stat(2_949_073, 0, 0, 0, 0, 0), 2_000_000,
                Double.NaN))
                .isEqualTo("/a: no CPU limit of its own (cpu.weight 200); it used 1.47 CPUs.");
        assertThat(CgroupVerdict.of("/", null, stat(3_999_996, 0, 0, 0, 0, 0), 2_000_000, Double.NaN))
                .isEqualTo("/ (the whole machine): used 2.00 CPUs.");
        CgroupSpec burst = new CgroupSpec("/c", 300_000, 100_000, 50_000, 100);
        assertThat(CgroupVerdict.of("/c", burst, stat(1_265_574, 4, 1, 1_569, 3, 49_973), 400_000, Double.NaN))
                .contains("at 3.00 CPUs (cpu.max 300000 100000, cpu.max.burst 50000)")
                .contains("and ran on burst time in 3 periods (50 ms). Without the limit");
        // without the plan's settings: the counts, no quota figures
        assertThat(CgroupVerdict.of("/b", null, stat(1_015_958, 20, 20, 1_032_046, 0, 0), 2_000_000, Double.NaN))
                .startsWith("/b: throttled in 20 of 20 periods, 1032 ms in all");
    }

    @Test
    void aPodsCgroupsAreNamedAsKubernetesNamesThem() {
        String web = "/kubepods/burstable/podd13b/web";
        assertThat(CgroupVerdict.named(web, java.util.Map.of("namespace", "shop", "pod", "checkout", "container",
                "web"))).isEqualTo("container web of shop/checkout (" + web + ")");
        assertThat(CgroupVerdict.named("/kubepods/burstable/podd13b", java.util.Map.of("namespace", "shop", "pod",
                "checkout", "container", ""))).isEqualTo("pod shop/checkout (/kubepods/burstable/podd13b)");
        assertThat(CgroupVerdict.named("/b", null)).isEqualTo("/b");
        assertThat(CgroupVerdict.of(CgroupVerdict.named(web, java.util.Map.of("namespace", "shop", "pod", "checkout",
                        "container", "web")), HALF, stat(1_015_958, 20, 20, 1_032_046, 0, 0), 2_000_000, Double.NaN))
                .startsWith("container web of shop/checkout (" + web + "): throttled in 20 of 20 periods");
    }

    @Test
    void units() {
        String g = Units.GROUP;
        assertThat(Units.grouped(2_949_073)).isEqualTo("2" + g + "949" + g + "073");
        assertThat(Units.grouped(1234)).isEqualTo("1234");
        assertThat(Units.grouped(12_345.5)).isEqualTo("12" + g + "345.5");
        assertThat(Units.grouped(-123_456)).isEqualTo("-123" + g + "456");
        assertThat(Units.grouped(0.501)).isEqualTo("0.501");
        assertThat(Units.ms(1_032_046)).isEqualTo("1032 ms");
        assertThat(Units.ms(61_462_000)).isEqualTo("61" + g + "462 ms");
        assertThat(Units.ms(4_230)).isEqualTo("4.2 ms");
        assertThat(Units.ms(50)).isEqualTo("50 µs");
        assertThat(Units.ms(0)).isEqualTo("0 ms");
        assertThat(Units.us(3_249.4)).isEqualTo("3249");
        assertThat(Units.us(3.74)).isEqualTo("3.7");
        assertThat(Units.cpus(0.508)).isEqualTo("0.51 CPU");
        assertThat(Units.cpus(1.47)).isEqualTo("1.47 CPUs");
        assertThat(Units.pct(1.0)).isEqualTo("100 %");
        assertThat(Units.pct(0.065)).isEqualTo("6.5 %");
    }
}
