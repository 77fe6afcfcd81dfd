package dev.schedsim.bench;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfile;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;

/**
 * A digest of the engine's reports over a broad set of specs, to show that a speed change left every result
 * byte-identical (the speed issue asks for it): 7 topology presets × every kernel profile, each with a mix of
 * CPU-bound, jittered periodic, request-response under a burst quota, hackbench and schbench -R; the three
 * benchmark specs; and eight long-run-queue cases. Prints {@code FP <sha-256>}, and with {@code -v} a short
 * digest per spec first. {@code scripts/fingerprint-compare.sh} runs it against two revisions' engines.
 */
public final class ReportFingerprint {
    private static final String[] PRESETS = {"validation-2c", "desktop-8c-smt2", "power10-8c-smt8",
        "xeon-2s-4c-smt2", "thunderx2-2n-28c-smt4", "epyc-2s-64c-smt2-8ccx", "power-46c-smt8-8n"};

    private static final java.util.regex.Pattern CPU_STAT_SERIES = java.util.regex.Pattern.compile(
            ", usageUsec=\\[[^\\]]*], nrPeriods=\\[[^\\]]*], nrThrottled=\\[[^\\]]*], throttledUsec=\\[[^\\]]*]");

    private ReportFingerprint() {
    }

    public static void main(String[] args) throws NoSuchAlgorithmException {
        boolean verbose = args.length > 0 && args[0].equals("-v");
        MessageDigest all = MessageDigest.getInstance("SHA-256");
        for (Case c : cases()) {
            // Without the cpu.stat series of 2026-12 (cumulative counters per bucket, derived from what the report
            // had before), so that revisions before and after them compare on the same results.
            String report = mask(CPU_STAT_SERIES.matcher(Engine.run(c.spec, c.seed, Long.MAX_VALUE, RunControl.NONE)
                    .toString()).replaceAll(""));
            byte[] h = MessageDigest.getInstance("SHA-256").digest(report.getBytes(StandardCharsets.UTF_8));
            all.update(h);
            if (verbose) {
                System.out.println(c.name + " " + HexFormat.of().formatHex(h, 0, 6));
            }
        }
        System.out.println("FP " + HexFormat.of().formatHex(all.digest()));
    }

    /**
     * The report's text with the fields named in the system property {@code fp.mask} (comma-separated, e.g.
     * {@code timeSeries}) cut out, to show that a change which deliberately moves one field, or adds one, moved nothing
     * else.
     */
    static String mask(String report) {
        String names = System.getProperty("fp.mask", "");
        for (String name : names.isBlank() ? new String[0] : names.split(",")) {
            String key = name.trim() + "=";
            int at;
            while ((at = report.indexOf(key)) >= 0) {
                int i = at + key.length();
                int depth = 0;
                while (i < report.length()) { // the value ends at the comma or bracket that closes its level
                    char ch = report.charAt(i);
                    if (ch == '[') {
                        depth++;
                    } else if (ch == ']') {
                        if (depth == 0) {
                            break;
                        }
                        depth--;
                    } else if (ch == ',' && depth == 0) {
                        break;
                    }
                    i++;
                }
                // (the field goes with its separator: a field one revision has and the other has not compares too)
                int from = at >= 2 && report.startsWith(", ", at - 2) ? at - 2 : at;
                report = report.substring(0, from) + report.substring(i);
            }
        }
        return report;
    }

    private record Case(String name, EngineSpec spec, long seed) {
    }

    private static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (String preset : PRESETS) {
            for (KernelProfile kp : KernelProfiles.all()) {
                out.add(new Case(preset + " " + kp.name(), everyWorkload(preset, kp), 7));
            }
        }
        out.add(new Case("mixed64", BenchSpecs.mixed64(300_000), 42));
        out.add(new Case("epyc64Groups", BenchSpecs.epyc64Groups(200_000), 42));
        out.add(new Case("validationFour150", BenchSpecs.validationFour150(), 42));
        // Long run queues.
        out.add(new Case("2 CPUs, 96 threads",
                BenchSpecs.mixed(TopologyPresets.byName("validation-2c").spec(), 96, 300_000), 42));
        out.add(new Case("16 CPUs, 600 threads",
                BenchSpecs.mixed(TopologyPresets.byName("desktop-8c-smt2").spec(), 600, 300_000), 42));
        // 80 threads: short queues (scanned); 800: about 200 per cfs_rq, in the tree (CfsRq.TREE_AT).
        for (int scale : new int[] {1, 10}) {
            for (String profile : new String[] {"5.15", "6.1", "6.18"}) {
                KernelConfig k = KernelConfig.of(KernelProfiles.byName(profile), 1000, new EnumMap<>(Feature.class),
                        5000);
                out.add(new Case("2 CPUs, " + 80 * scale + " threads, " + profile, new EngineSpec(
                        TopologyPresets.byName("validation-2c").spec(), k,
                        List.of(CgroupSpec.unlimited("/", 100), new CgroupSpec("/a", 120_000, 100_000, 0, 100),
                                CgroupSpec.unlimited("/b", 300)),
                        List.of(WorkloadSpec.cpuBound("a", "/a", 40 * scale, 0),
                                WorkloadSpec.periodic("b", "/b", 30 * scale, 300, 700),
                                WorkloadSpec.requestResponse("c", "/", 10 * scale, 30, 10)),
                        400_000, false), 42));
            }
        }
        return out;
    }

    /** 150 ms of every workload type on a preset under a profile, two threads per CPU. */
    private static EngineSpec everyWorkload(String preset, KernelProfile kp) {
        TopologySpec topo = TopologyPresets.byName(preset).spec();
        int cpus = topo.cpuCount();
        KernelConfig k = KernelConfig.of(kp, 250, new EnumMap<>(Feature.class), 5000);
        List<CgroupSpec> cg = List.of(CgroupSpec.unlimited("/", 100),
                new CgroupSpec("/batch", Math.max(1000, cpus / 4 * 100_000L), 100_000, 0, 100),
                CgroupSpec.unlimited("/web", 200),
                new CgroupSpec("/svc", Math.max(30_000, cpus / 8 * 100_000L), 50_000, 20_000, 100),
                new CgroupSpec("/hb", Math.max(2000, cpus / 3 * 100_000L), 100_000, 0, 300));
        int th = Math.max(6, cpus * 2);
        List<WorkloadSpec> w = List.of(
                WorkloadSpec.cpuBound("batch", "/batch", th / 3, 0),
                WorkloadSpec.periodic("web", "/web", th / 3, 2000, 8000, 20),
                WorkloadSpec.requestResponse("svc", "/svc", Math.max(1, th / 6), 50, 20),
                WorkloadSpec.hackbench("hb", "/hb", 2, 5, 40, 3),
                WorkloadSpec.schbench("sch", "/", 2, 4, 2000, 400));
        return new EngineSpec(topo, k, cg, w, 150_000, false);
    }
}
