package dev.schedsim.engine.core;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * (model) The warm-up runs of a spec ({@link EngineSpec.Warmup}) laid out on one clock: warm-up run k (0-based)
 * starts at k · (duration + gap) with cgroups and threads of its own — copies of the spec's, as a harness makes its
 * cgroups and starts its program again for each run — and the reported run starts after the last gap. The root
 * group is the machine's and is shared. Without warm-up this is the spec's cgroups and nothing else.
 */
final class WarmupPlan {
    /** What happens at a boundary between runs. */
    enum Kind { STOP, CONFIGURE, REPORT }

    /** A boundary event: at {@code timeNs}, {@code kind} for warm-up run {@code run} (REPORT: the reported run). */
    record Boundary(long timeNs, Kind kind, int run) {
    }

    final int runs;
    /** When the reported run starts, ns (0 without warm-up). */
    final long originNs;
    /** The spec's cgroups, then each warm-up run's copies of the non-root ones. */
    final List<CgroupSpec> cgroups = new ArrayList<>();
    /** Each warm-up run's copies of the spec's workloads, run by run. */
    final List<WorkloadSpec> workloads = new ArrayList<>();
    /** The boundaries in time order (a stop before the next run's cgroups at the same instant). */
    final List<Boundary> boundaries = new ArrayList<>();
    private final long periodNs;
    private final int specCgroups;

    WarmupPlan(EngineSpec spec) {
        this.runs = spec.warmup().runs();
        this.periodNs = spec.warmupPeriodUs() * 1000;
        this.originNs = spec.reportedStartUs() * 1000;
        this.specCgroups = spec.cgroups().size();
        cgroups.addAll(spec.cgroups());
        long stopNs = (spec.stopUs() > 0 ? Math.min(spec.stopUs(), spec.durationUs()) : spec.durationUs()) * 1000;
        for (int k = 0; k < runs; k++) {
            for (CgroupSpec c : spec.cgroups()) {
                if (c.parentPath() != null) {
                    cgroups.add(new CgroupSpec(path(c.path(), k), c.quotaUs(), c.periodUs(), c.burstUs(),
                            c.weight()));
                }
            }
            for (WorkloadSpec w : spec.workloads()) {
                workloads.add(new WorkloadSpec(w.name() + "~warmup" + (k + 1), path(w.cgroup(), k), w.nice(),
                        w.cpus(), w.cacheFootprintKb(), w.kind(), w.runClock()));
            }
            if (k > 0) {
                boundaries.add(new Boundary(k * periodNs, Kind.CONFIGURE, k));
            }
            boundaries.add(new Boundary(k * periodNs + stopNs, Kind.STOP, k));
        }
        if (runs > 0) {
            boundaries.add(new Boundary(originNs, Kind.REPORT, runs));
        }
        // (a stop at the next run's start sorts before its cgroups: the list is stable)
        boundaries.sort((a, b) -> Long.compare(a.timeNs(), b.timeNs()));
    }

    /** Warm-up run k's copy of a cgroup path: its first component renamed, so a hierarchy keeps its depth. */
    static String path(String p, int k) {
        if ("/".equals(p)) {
            return p;
        }
        int slash = p.indexOf('/', 1);
        String first = slash < 0 ? p : p.substring(0, slash);
        return first + "~warmup" + (k + 1) + (slash < 0 ? "" : p.substring(slash));
    }

    /** When warm-up run k starts, ns. */
    long startNs(int k) {
        return k * periodNs;
    }

    /** Whether cgroup i (an index of {@link #cgroups}) is configured at time 0: the root, and the first run's. */
    boolean configuredAtStart(int i) {
        return runs == 0 || i == 0 || runOfCgroup(i) == 0;
    }

    /** The warm-up run a cgroup copy belongs to (-1: the spec's own). */
    int runOfCgroup(int i) {
        if (i < specCgroups) {
            return -1;
        }
        return (i - specCgroups) / (specCgroups - 1);
    }
}
