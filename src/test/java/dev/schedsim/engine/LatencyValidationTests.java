package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The real-kernel latency and placement cases (validation/latency-cases.json, measured on the validation machine
 * with scripts/measure-latency.py) run through the engine on validation-2c, profile 6.18, HZ 250, with three seeds.
 * The model's medians over its seeds must meet these tolerances against the kernel's medians over its runs:
 * wakeup latency percentiles (p50, p90, p99, max) within 2× or 50 µs (where a data set has the share of wakeups
 * over 100 µs, that share within 30 % or one point, and a percentile the kernel's own runs do not repeat within its
 * tolerance is reported instead: {@link #steady}); context switches, migrations and units
 * (cycles, transactions) within 30 % or 10; CPU time per thread and a finite workload's completion time within
 * 5 % or 5 ms. A figure the model
 * does not reproduce yet is listed with its reason in the data file ({@code knownDeviations}); it is reported, not
 * asserted.
 *
 * <p>The kernel's latency is from sched_waking to the return of the sleep or read in the program (the guest emits
 * no sched_switch for some wakeups out of idle, so that end is complete); the model's from the wakeup to the switch
 * into the task, which is a microsecond or two earlier.
 */
class LatencyValidationTests {
    /** The model's seeds ({@code -Dlatency.seeds=1,2,3,4,5} to look at more of its spread). */
    static final long[] SEEDS = Arrays.stream(System.getProperty("latency.seeds", "1,2,3").split(","))
            .mapToLong(Long::parseLong).toArray();
    /**
     * Features switched on beyond profile 6.18's ({@code -Dlatency.features=VCPU_PACK} tries the validation kernel's
     * own packing; none by default).
     */
    static final Map<Feature, Boolean> FEATURES = features();

    private static Map<Feature, Boolean> features() {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        for (String name : System.getProperty("latency.features", "").split(",")) {
            if (!name.isBlank()) {
                f.put(Feature.valueOf(name.trim()), true);
            }
        }
        return f;
    }

    /**
     * What precedes a measured run on the validation machine (scripts/measure-latency.py): the harness runs each
     * case's runs one after another with a 0.5 s sleep between them, on a machine whose sched domains are kept, so
     * a run starts with the balance state the run before it left (NI_RANDOM's newidle_ratio first: sd_init() sets it
     * only when the domains are built). The model runs the case this many times before the reported run, each
     * followed by the harness's sleep ({@code -Dlatency.warmupRuns=0} for a run on a fresh machine).
     */
    static final int WARMUP_RUNS = Integer.getInteger("latency.warmupRuns", 1);
    /** The harness's sleep between two runs (measure-latency.py main(): time.sleep(0.5)). */
    static final long HARNESS_GAP_US = 500_000;
    /** Only the cases of these names ({@code -Dlatency.cases=four-2000,eight-short}; all by default). */
    static final List<String> ONLY = Arrays.stream(System.getProperty("latency.cases", "").split(","))
            .filter(x -> !x.isBlank()).toList();

    /** The cache footprint of a latbench thread, KiB (a stack page or two, the vDSO data). */
    static final int HARNESS_FOOTPRINT_KB = 4;
    /** A pipe's capacity (PIPE_DEF_BUFFERS pages), in latbench's one-byte messages. */
    static final int LATBENCH_PIPE_BYTES = 65_536;

    record Group(String kind, int count, long[] args, Integer cpu, int nice, String cgroup) {
    }

    /**
     * The data sets, one per host the cases were measured on: the validation machine's guest ran on hosts whose
     * timers and idle exits cost differently (docs/latency-validation.md, "A second host"). The first is the one
     * validation-2c is calibrated on; another names its own measured costs in a "hardware" block.
     */
    static final String[] DATA = {"latency-cases.json", "latency-cases-2026-12-02.json",
        "latency-cases-2026-12-02b.json", "latency-cases-2026-12-06.json", "latency-cases-2026-12-06b.json",
        "latency-cases-2026-12-06c.json", "latency-cases-2026-12-06d.json",
        "latency-cases-2026-12-06e.json"};

    /**
     * DATA, and the data sets -Dvalidation.data names (comma-separated): sets kept out of the suites, such as
     * latency-cases-2026-12-07f.json, a loud boot's (docs/latency-validation.md, "What a woken task is charged before
     * it runs"), run on demand.
     */
    static List<String> dataSets() {
        List<String> out = new ArrayList<>(List.of(DATA));
        for (String s : System.getProperty("validation.data", "").split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    record Case(String data, String name, long durationMs, List<CgroupSpec> cgroups, List<Group> groups,
                JsonNode runs, List<String> knownDeviations, JsonNode hardware) {
        @Override
        public String toString() {
            return data.replace(".json", "") + "/" + name;
        }
    }

    static Stream<Case> cases() throws IOException {
        List<Case> out = new ArrayList<>();
        for (String data : dataSets()) {
            cases(data, out);
        }
        return out.stream();
    }

    private static void cases(String data, List<Case> out) throws IOException {
        try (InputStream in = LatencyValidationTests.class.getResourceAsStream("/validation/" + data)) {
            JsonNode root = new ObjectMapper().readTree(in);
            JsonNode hardware = root.has("hardware") ? root.get("hardware") : null;
            for (JsonNode c : root.get("cases")) {
                List<CgroupSpec> cgroups = new ArrayList<>();
                for (JsonNode g : c.get("cgroups")) {
                    int weight = (int) Math.round(g.get("shares").asLong() * 100 / 1024.0);
                    cgroups.add(new CgroupSpec("/" + g.get("name").asString(), g.get("quotaUs").asLong(),
                            g.get("periodUs").asLong(), 0, weight));
                }
                List<Group> groups = new ArrayList<>();
                for (JsonNode g : c.get("groups")) {
                    long[] args = new long[g.get("args").size()];
                    for (int i = 0; i < args.length; i++) {
                        args[i] = g.get("args").get(i).asLong();
                    }
                    groups.add(new Group(g.get("kind").asString(), g.get("count").asInt(), args,
                            g.get("cpu").isNull() ? null : g.get("cpu").asInt(), g.get("nice").asInt(),
                            g.get("cgroup").isNull() ? null : g.get("cgroup").asString()));
                }
                List<String> deviations = new ArrayList<>();
                if (c.has("knownDeviations")) {
                    c.get("knownDeviations").forEach(d -> deviations.add(d.get("figure").asString()));
                }
                if (!ONLY.isEmpty() && !ONLY.contains(c.get("name").asString())) {
                    continue;
                }
                out.add(new Case(data, c.get("name").asString(), c.get("durationMs").asLong(), cgroups, groups,
                        c.get("runs"), deviations, hardware));
            }
        }
    }

    /** validation-2c, with the costs the data set's host measured where it names them. */
    static TopologySpec machine(Case c) {
        return machine(c.hardware());
    }

    /**
     * validation-2c with a data set's "hardware" block (null: as the preset has it): the host's costs, and its own
     * machine noise where the block has a "noise" object (else validation-2c's).
     */
    static TopologySpec machine(JsonNode h) {
        TopologySpec t = Specs.noisy("validation-2c");
        if (h == null) {
            return t;
        }
        HardwareModel hw = t.hardware().withWakeKernelNs(h.get("wakeKernelNs").asLong())
                .withHrtimerSleepNs(h.get("hrtimerSleepNs").asLong())
                .withHrtimerIrqNs(h.has("hrtimerIrqNs") ? h.get("hrtimerIrqNs").asLong() : 0)
                .withHrtimerReprogramNs(h.has("hrtimerReprogramNs") ? h.get("hrtimerReprogramNs").asLong() : 0)
                .withWakeClockSkipNs(Long.getLong("latency.wakeClockSkipNs",
                        h.has("wakeClockSkipNs") ? h.get("wakeClockSkipNs").asLong() : 0))
                .withWakeIpi(h.has("ipiWakeNs") ? h.get("ipiWakeNs").asLong() : 0,
                        h.has("ipiDeliveryNs") ? h.get("ipiDeliveryNs").asLong() : 0)
                .withIdleExit(h.get("shallowIdleExitNs").asLong(), h.get("deepIdleExitNs").asLong(),
                        t.hardware().deepIdleResidencyNs())
                .withIdleExitCpuShare(h.get("idleExitCpuShare").asDouble());
        if (h.has("noise")) {
            hw = hw.withNoise(noise(h.get("noise")));
        }
        return t.withHardware(hw);
    }

    /**
     * The features beyond profile 6.18's that a data set's host kernel had (its hardware block's "kernelFeatures":
     * the validation guest's VCPU_PACK where its command line had sched_vcpu_pack), with -Dlatency.features.
     */
    static Map<Feature, Boolean> kernelFeatures(JsonNode h) {
        Map<Feature, Boolean> f = new EnumMap<>(FEATURES);
        if (h != null) {
            for (JsonNode name : h.path("kernelFeatures")) {
                f.put(Feature.valueOf(name.asString()), true);
            }
        }
        return f;
    }

    /** A data set's own "noise" object as a MachineNoise (the fields of the record, background as a list). */
    static MachineNoise noise(JsonNode n) {
        List<MachineNoise.Background> bg = new ArrayList<>();
        for (JsonNode b : n.get("background")) {
            bg.add(new MachineNoise.Background(b.get("name").asString(), b.get("threads").asInt(),
                    b.get("wakeupsPerSec").asDouble(), b.get("runMedianNs").asLong(), b.get("runSigma").asDouble()));
        }
        List<MachineNoise.HostStall> stalls = new ArrayList<>();
        for (JsonNode h : n.path("hostStalls")) {
            stalls.add(new MachineNoise.HostStall(h.get("name").asString(), h.get("perSec").asDouble(),
                    h.get("medianNs").asLong(), h.get("sigma").asDouble()));
        }
        JsonNode w = n.get("wakeDelay");
        MachineNoise.WakeDelay wake = w == null ? null : new MachineNoise.WakeDelay(w.get("pct").asDouble(),
                w.get("medianNs").asLong(), w.get("sigma").asDouble());
        // -Dlatency.afterHalt=FACTOR,WINDOW_NS tries a host's AfterHalt on every data set with its own noise object
        JsonNode a = n.get("afterHalt");
        String tried = System.getProperty("latency.afterHalt");
        MachineNoise.AfterHalt afterHalt = tried != null
                ? new MachineNoise.AfterHalt(Double.parseDouble(tried.split(",")[0]), Long.parseLong(tried.split(",")[1]))
                : a == null ? null : new MachineNoise.AfterHalt(a.get("irqFactor").asDouble(), a.get("windowNs").asLong());
        return new MachineNoise(n.get("irqPerSec").asDouble(), n.get("irqMedianNs").asLong(),
                n.get("irqSigma").asDouble(), n.get("timerJitterNs").asLong(), bg, stalls, wake, afterHalt);
    }

    static EngineSpec spec(Case c) {
        List<WorkloadSpec> w = new ArrayList<>();
        for (int i = 0; i < c.groups().size(); i++) {
            Group g = c.groups().get(i);
            String cg = g.cgroup() == null ? "/" : "/" + g.cgroup();
            String name = "g" + i;
            WorkloadSpec s = switch (g.kind()) {
                case "periodic" -> WorkloadSpec.periodic(name, cg, g.count(), g.args()[0], g.args()[1]);
                case "busy" -> WorkloadSpec.cpuBound(name, cg, g.count(), 0);
                case "pingpong" -> WorkloadSpec.requestResponse(name, cg, g.count(), g.args()[0], g.args()[1]);
                // latbench's receivers read one-byte messages from a 64 KiB pipe (pipe_write() merges them into
                // its pages): 65 536 fit before a sender's write() sleeps
                case "hackbench" -> WorkloadSpec.of(name, cg, new WorkloadSpec.Hackbench(g.count(), (int) g.args()[0],
                        (int) g.args()[1], g.args()[2], LATBENCH_PIPE_BYTES));
                default -> throw new IllegalArgumentException(g.kind());
            };
            if (g.nice() != 0) {
                s = s.withNice(g.nice());
            }
            if (g.cpu() != null) {
                s = s.withCpus(new int[] {g.cpu()});
            }
            // latbench's threads touch only their stack and the vDSO page: nothing to refill after a switch
            w.add(s.withFootprintKb(HARNESS_FOOTPRINT_KB));
        }
        return Specs.spec(machine(c), Specs.kernel("6.18", 250, kernelFeatures(c.hardware())), c.cgroups(), w,
                c.durationMs() * 1000).withWarmup(new EngineSpec.Warmup(WARMUP_RUNS, HARNESS_GAP_US));
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** One figure of group g in each of the kernel's runs (NaN where a run has none). */
    private static double[] kernel(Case c, int g, String figure) {
        double[] v = new double[c.runs().size()];
        for (int r = 0; r < v.length; r++) {
            JsonNode grp = c.runs().get(r).get("groups").get(g);
            v[r] = switch (figure) {
                case "p50", "p90", "p99", "max", "over100usPct" -> {
                    JsonNode x = grp.get("returnLatencyUs").get(figure);
                    yield x == null || x.isNull() ? Double.NaN : x.asDouble();
                }
                case "cpuMsPerThread" -> sum(grp, "cpuMs") / grp.get("threads").size();
                case "completionMs" -> grp.get("completionMs").asDouble();
                default -> sum(grp, figure);
            };
        }
        return v;
    }

    private static double sum(JsonNode group, String field) {
        double s = 0;
        for (JsonNode t : group.get("threads")) {
            s += t.get(field).asDouble();
        }
        return s;
    }

    /** One figure of workload g in each of the model's seeds. */
    private static double[] model(List<Report> reports, Case c, int g, String figure) {
        double[] v = new double[reports.size()];
        for (int r = 0; r < v.length; r++) {
            Report.WorkloadReport w = reports.get(r).workloads().get(g);
            v[r] = switch (figure) {
                case "p50" -> w.wakeupLatencyUs().p50();
                case "p90" -> w.wakeupLatencyUs().p90();
                case "p99" -> w.wakeupLatencyUs().p99();
                case "max" -> w.wakeupLatencyUs().max();
                case "over100usPct" -> w.wakeupLatencyUs().over100usPct();
                case "cpuMsPerThread" -> w.cpuUsec() / 1000.0 / spec(c).workloads().get(g).threadCount();
                case "switches" -> w.contextSwitches();
                case "migrations" -> w.migrations();
                case "units" -> w.throughputPerSec() * c.durationMs() / 1000.0;
                case "completionMs" -> w.completionUs() / 1000.0;
                default -> throw new IllegalArgumentException(figure);
            };
        }
        return v;
    }

    /** "min–max" of the values, the spread between runs or seeds. */
    private static String range(double[] v) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        return String.format(Locale.ROOT, "%.1f-%.1f", lo, hi);
    }

    static final String[] LATENCY = {"p50", "p90", "p99", "max"};
    static final String[] COUNTS = {"switches", "migrations"};

    /** Whether the kernel's runs of group g give the share of wakeups over 100 µs (measured since 2026-12-06d). */
    private static boolean hasShare(Case c, int g) {
        JsonNode x = c.runs().get(0).get("groups").get(g).get("returnLatencyUs").get("over100usPct");
        return x != null && !x.isNull();
    }

    /**
     * Whether every run of the kernel meets figure f's tolerance against the runs' median k. A latency percentile
     * that sits where the wakeups split into immediate ones and ones that waited for a running thread jumps between
     * the two from run to run (four-2000's p90 53-994 us in nine runs of one host): no single run of the kernel
     * would pass a test against its own median, so where the share over 100 us was measured, that share is
     * asserted and such a percentile is reported only (docs/latency-validation.md, "Percentiles at a gap").
     */
    static boolean steady(String f, double[] kernelRuns, double k) {
        for (double x : kernelRuns) {
            if (!Double.isNaN(x) && !within(f, x, k)) {
                return false;
            }
        }
        return true;
    }

    /** Whether model m meets the tolerance of figure f against kernel value k. */
    static boolean within(String f, double m, double k) {
        if (Double.isNaN(k)) {
            return true;
        }
        switch (f) {
            case "p50", "p90", "p99", "max":
                return Math.abs(m - k) <= 50 || (m <= 2 * k && k <= 2 * m);
            case "cpuMsPerThread", "completionMs":
                return Math.abs(m - k) <= Math.max(0.05 * k, 5);
            case "over100usPct":
                return Math.abs(m - k) <= Math.max(0.3 * k, 1);
            default:
                return Math.abs(m - k) <= Math.max(0.3 * k, 10);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theModelMatchesTheKernel(Case c) {
        List<Report> reports = new ArrayList<>();
        for (long seed : SEEDS) {
            reports.add(Specs.run(spec(c), seed));
        }
        List<String> misses = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        for (int g = 0; g < c.groups().size(); g++) {
            List<String> figures = new ArrayList<>();
            boolean share = !c.groups().get(g).kind().equals("busy") && hasShare(c, g);
            if (!c.groups().get(g).kind().equals("busy")) {
                figures.addAll(List.of(LATENCY));
            }
            if (share) {
                figures.add("over100usPct");
            }
            figures.add("cpuMsPerThread");
            figures.addAll(List.of(COUNTS));
            if (c.groups().get(g).kind().equals("hackbench")) {
                figures.add("completionMs");
            } else if (!c.groups().get(g).kind().equals("busy")) {
                figures.add("units");
            }
            for (String f : figures) {
                double[] kv = kernel(c, g, f);
                double[] mv = model(reports, c, g, f);
                double k = median(kv);
                double m = median(mv);
                boolean ok = within(f, m, k);
                String key = "g" + g + "." + f;
                boolean unsteady = share && List.of(LATENCY).contains(f) && !steady(f, kv, k);
                table.append(String.format(Locale.ROOT, "  %-20s kernel %9.1f (%-17s) model %9.1f (%-17s) %s%n",
                        key, k, range(kv), m, range(mv),
                        unsteady ? (ok ? "ok" : "not asserted") + " (the kernel's runs do not meet it: the share over"
                                + " 100 us decides it)"
                        : ok ? (c.knownDeviations().contains(key) ? "ok (listed as a known deviation: met now)" : "ok")
                                : c.knownDeviations().contains(key) ? "known deviation" : "MISS"));
                if (!ok && !unsteady && !c.knownDeviations().contains(key)) {
                    misses.add(key);
                }
            }
        }
        System.out.println("latency case " + c + "\n" + table);
        assertTrue(misses.isEmpty(), c + ": " + misses + "\n" + table);
    }
}
