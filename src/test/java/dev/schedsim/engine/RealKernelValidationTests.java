package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Every real-kernel case (shared/validation/realkernel/cases.json, plus the cases measured for this project
 * in validation/cases-schedsim.json) run through the engine on validation-2c, profile 6.18, HZ 250, with three
 * seeds; the mean must meet the tolerances of the validation README against the measured runs.
 */
class RealKernelValidationTests {
    static final long[] SEEDS = {1, 2, 3};
    /**
     * measure.sh's timeline: the limit is written, then `sh -c 'echo $$ > tasks; exec spin'` starts the
     * threads a little later; spin stops itself after wallMs; awk reads cpu.stat after the process has
     * exited. The period timer counts all of it.
     */
    static final long START_DELAY_US = 2_000;
    static final long READ_DELAY_US = 15_000;

    record Measured(long usageUsec, long nrPeriods, long nrThrottled, long throttledUsec, long nrBursts,
                    long burstUsec) {
    }

    /** The parent group's statistics, measured for cases with a limited parent. */
    record ParentMeasured(long nrPeriods, long nrThrottled, long throttledUsec) {
    }

    /**
     * A case whose named figures the model does not reproduce yet: they are reported, not asserted; every
     * other figure of the case is. Each one is listed, with the reason, in the data file and the README.
     */
    record Case(String name, long quotaUs, long periodUs, long burstUs, int threads, long runUs, long sleepUs,
                long wallMs, long parentQuotaUs, List<Measured> runs, List<ParentMeasured> parentRuns,
                List<String> knownDeviations) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() throws IOException {
        List<Case> out = new ArrayList<>();
        for (String file : new String[] {"/validation/cases.json", "/validation/cases-schedsim.json"}) {
            try (InputStream in = RealKernelValidationTests.class.getResourceAsStream(file)) {
                if (in == null) {
                    continue;
                }
                JsonNode root = new ObjectMapper().readTree(in);
                for (JsonNode c : root.get("cases")) {
                    JsonNode s = c.get("spec");
                    List<Measured> runs = new ArrayList<>();
                    for (JsonNode r : c.get("runs")) {
                        runs.add(new Measured(r.get("usageUsec").asLong(), r.get("nrPeriods").asLong(),
                                r.get("nrThrottled").asLong(), r.get("throttledUsec").asLong(),
                                r.get("nrBursts").asLong(), r.get("burstUsec").asLong()));
                    }
                    List<ParentMeasured> parents = new ArrayList<>();
                    if (c.has("parentRuns")) {
                        for (JsonNode r : c.get("parentRuns")) {
                            parents.add(new ParentMeasured(r.get("nrPeriods").asLong(), r.get("nrThrottled").asLong(),
                                    r.get("throttledUsec").asLong()));
                        }
                    }
                    List<String> deviations = new ArrayList<>();
                    if (c.has("knownDeviation")) {
                        for (JsonNode f : c.get("knownDeviation").get("fields")) {
                            deviations.add(f.asString());
                        }
                    }
                    out.add(new Case(c.get("name").asString(), s.get("quotaUs").asLong(), s.get("periodUs").asLong(),
                            s.get("burstUs").asLong(), s.get("threads").asInt(), s.get("runUs").asLong(),
                            s.get("sleepUs").asLong(), s.get("wallMs").asLong(), s.get("parentQuotaUs").asLong(),
                            runs, parents, deviations));
                }
            }
        }
        return out.stream();
    }

    static EngineSpec specOf(Case c) {
        List<CgroupSpec> cg = new ArrayList<>();
        cg.add(c.parentQuotaUs() == -1 ? CgroupSpec.unlimited("/parent", 100)
                : new CgroupSpec("/parent", c.parentQuotaUs(), c.periodUs(), 0, 100));
        cg.add(c.quotaUs() == -1 ? CgroupSpec.unlimited("/parent/child", 100)
                : new CgroupSpec("/parent/child", c.quotaUs(), c.periodUs(), c.burstUs(), 100));
        WorkloadSpec w = c.sleepUs() == 0
                ? WorkloadSpec.cpuBound("spin", "/parent/child", c.threads(), 0)
                : WorkloadSpec.periodic("spin", "/parent/child", c.threads(), c.runUs(), c.sleepUs());
        EngineSpec s = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18"), cg, List.of(w),
                c.wallMs() * 1000);
        long stop = START_DELAY_US + c.wallMs() * 1000;
        return new EngineSpec(s.topology(), s.kernel(), s.cgroups(), s.workloads(), stop + READ_DELAY_US, false,
                START_DELAY_US, stop);
    }

    /** The simulated mean over the three seeds: the child's six figures, then the parent's three. */
    static double[] simulate(Case c) {
        double[] m = new double[9];
        for (long seed : SEEDS) {
            Report r = Specs.run(specOf(c), seed);
            Report.CpuStat st = Specs.cgroup(r, "/parent/child").cpuStat();
            Report.CpuStat p = Specs.cgroup(r, "/parent").cpuStat();
            long[] v = {Specs.workload(r, "spin").cpuUsec(), st.nrPeriods(), st.nrThrottled(), st.throttledUsec(),
                st.nrBursts(), st.burstUsec(), p.nrPeriods(), p.nrThrottled(), p.throttledUsec()};
            for (int i = 0; i < v.length; i++) {
                m[i] += v[i] / (double) SEEDS.length;
            }
        }
        return m;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void meetsTheReadmeTolerances(Case c) {
        double[] sim = simulate(c);
        List<String> failures = new ArrayList<>();
        double usageMean = c.runs().stream().mapToLong(Measured::usageUsec).average().orElseThrow();
        if (Math.abs(sim[0] - usageMean) > 0.05 * usageMean) {
            failures.add("usageUsec " + sim[0] + " vs measured mean " + usageMean);
        }
        checkRange(failures, "nrPeriods", sim[1], c.runs().stream().mapToLong(Measured::nrPeriods).toArray(), 2, 0);
        checkRange(failures, "nrThrottled", sim[2], c.runs().stream().mapToLong(Measured::nrThrottled).toArray(),
                2, 0.10);
        checkRange(failures, "throttledUsec", sim[3],
                c.runs().stream().mapToLong(Measured::throttledUsec).toArray(), 50_000, 0.15);
        checkRange(failures, "nrBursts", sim[4], c.runs().stream().mapToLong(Measured::nrBursts).toArray(), 2, 0);
        // (like throttledUsec: the measured runs' range, widened by 15 % of their mean; the kernel's own runs of
        // burst-steady spread ±20 % around it)
        checkRange(failures, "burstUsec", sim[5], c.runs().stream().mapToLong(Measured::burstUsec).toArray(), 0,
                0.15);
        if (!c.parentRuns().isEmpty()) {
            checkRange(failures, "parent nrPeriods", sim[6],
                    c.parentRuns().stream().mapToLong(ParentMeasured::nrPeriods).toArray(), 2, 0);
            checkRange(failures, "parent nrThrottled", sim[7],
                    c.parentRuns().stream().mapToLong(ParentMeasured::nrThrottled).toArray(), 2, 0.10);
            checkRange(failures, "parent throttledUsec", sim[8],
                    c.parentRuns().stream().mapToLong(ParentMeasured::throttledUsec).toArray(), 50_000, 0.15);
        }
        List<String> known = new ArrayList<>();
        failures.removeIf(f -> {
            for (String d : c.knownDeviations()) {
                if (f.startsWith(d + " ")) {
                    known.add(f);
                    return true;
                }
            }
            return false;
        });
        if (!known.isEmpty()) {
            System.out.println(c.name() + " known deviations (reported, not asserted): " + known);
        }
        System.out.printf("%-18s usage %.0f/%.0f periods %.1f thr %.1f thrUs %.0f bursts %.1f burstUs %.0f"
                + " parent: periods %.1f thr %.1f thrUs %.0f%n",
                c.name(), sim[0], usageMean, sim[1], sim[2], sim[3], sim[4], sim[5], sim[6], sim[7], sim[8]);
        assertTrue(failures.isEmpty(), c.name() + ": " + failures);
    }

    /** Within [min − slack, max + slack] where slack = max(abs, rel × mean). */
    private static void checkRange(List<String> failures, String what, double sim, long[] measured, double abs,
                                   double rel) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        double mean = 0;
        for (long v : measured) {
            min = Math.min(min, v);
            max = Math.max(max, v);
            mean += v / (double) measured.length;
        }
        double slack = Math.max(abs, rel * mean);
        if (sim < min - slack || sim > max + slack) {
            failures.add(what + " " + sim + " outside [" + min + ", " + max + "] ± " + slack);
        }
    }
}
