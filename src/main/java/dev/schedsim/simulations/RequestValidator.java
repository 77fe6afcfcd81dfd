package dev.schedsim.simulations;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfile;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.http.LimitExceededException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.Violations;
import dev.schedsim.json.Json;
import dev.schedsim.kubernetes.KubernetesInput;
import dev.schedsim.queue.SimulationPlanner;
import dev.schedsim.request.CgroupRules;
import dev.schedsim.request.CostEstimate;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.request.SimulationRequest.CgroupRequest;
import dev.schedsim.request.SimulationRequest.KernelRequest;
import dev.schedsim.request.SimulationRequest.VariantRequest;
import dev.schedsim.request.SimulationRequest.WorkloadRequest;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.request.Workloads;
import dev.schedsim.topologies.Topologies;
import dev.schedsim.trace.FtraceWorkloads;
import dev.schedsim.trace.RtApp;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Checks a simulation request against the rules of docs/api.md ("The request"), collecting every violation with its field path,
 * then against {@link Limits} (422), and turns it into the accepted request (defaults filled in) and the plan
 * the workers run (one engine spec per variant).
 *
 * <p>Decisions where the contract leaves room: a topology's {@code preset} may name a saved topology;
 * {@code threads} defaults to 1; a workload may run in an implicitly created parent; cgroup paths are
 * {@code /seg/seg} with segments {@code [A-Za-z0-9._-]+} other than {@code .} and {@code ..} (a {@code ..} could
 * name an ancestor as its own child: the only way to write a cycle with paths) and no empty segment
 * ({@code //x}); fields a workload type does not use are ignored.
 */
@Component
public class RequestValidator implements SimulationPlanner {
    private static final Set<Integer> HZ = Set.of(100, 250, 300, 1000);

    private final Topologies topologies;
    private final Limits limits;
    private final RequestReader reader;
    private final Variants variantRules;

    RequestValidator(Topologies topologies, Limits limits, RequestReader reader) {
        this.variantRules = new Variants(Json.REQUEST);
        this.topologies = topologies;
        this.limits = limits;
        this.reader = reader;
    }

    /** A request that passed: as accepted (defaults filled in) and its plan. */
    public record Accepted(SimulationRequest request, SimulationPlan plan) {
    }

    /**
     * Plans of recently planned requests, by their accepted JSON: a submission plans its request to count its
     * runs and each of its runs plans it again on a worker; the plan is a pure function of the JSON and of the
     * saved topologies it names, which cannot change once saved (no update or delete), so a cached plan never
     * goes stale.
     */
    private final java.util.Map<String, SimulationPlan> recentPlans = new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, SimulationPlan> eldest) {
            return size() > 64;
        }
    };

    @Override
    public SimulationPlan plan(String acceptedRequestJson) {
        synchronized (recentPlans) {
            SimulationPlan p = recentPlans.get(acceptedRequestJson);
            if (p != null) {
                return p;
            }
        }
        SimulationPlan p = accept(reader.read(acceptedRequestJson, SimulationRequest.class)).plan();
        synchronized (recentPlans) {
            recentPlans.put(acceptedRequestJson, p);
        }
        return p;
    }

    public Accepted accept(SimulationRequest request) {
        Violations v = new Violations();
        SimulationRequest r = FtraceWorkloads.expand(RtApp.expand(request, v), v);
        if (r.name() != null && !SimulationRequest.NAME.matcher(r.name()).matches()) {
            v.add("name", "must match [A-Za-z0-9._-]{1,64}");
        }
        KubernetesInput.Converted pod = null;
        Topologies.Resolved topology;
        if (r.kubernetes() != null) {
            pod = KubernetesInput.convert(r.kubernetes(), "kubernetes", topologies, v);
            if (pod == null) {
                v.throwIfAny(); // the pod did not convert: nothing below could be checked against it
            }
            derivedOnly(r, pod, v);
            topology = pod.node();
            r = new SimulationRequest(r.name(), pod.topology(), r.kernel(), pod.cgroups(), pod.workloads(),
                    r.durationMs(), r.seed(), r.repetitions(), r.variants(), r.trace(), r.sweep(), r.kubernetes(),
                    r.imports(), r.warmup());
        } else {
            topology = topologies.resolve(r.topology(), "topology", v);
        }
        KernelRequest kernel = kernel(r.kernel(), "kernel", v);
        Cgroups cgroups = cgroups(r.cgroups(), v);
        int workloadsFrom = v.size();
        List<WorkloadRequest> workloads = workloads(r.workloads(), cgroups, topology, v);
        for (int i = 0; pod != null && i < workloads.size(); i++) {
            // A container's workload is the user's kubernetes.workloads.<container>: name the field there.
            v.rename(workloadsFrom, "workloads[" + i + "]", "kubernetes.workloads." + workloads.get(i).name());
        }
        int repetitions = checkDurationAndRepetitions(r, v);
        SimulationRequest.WarmupRequest warmup = Warmups.check(r.warmup(), v);
        List<VariantRequest> variants = Variants.of(r.variants(), r.sweep(), cgroups, v);
        // Each variant's cgroups and workloads: the request's, with the variant's overrides (checked like them).
        List<VariantRequest> runs = variants.isEmpty() ? List.of(new VariantRequest("default", null)) : variants;
        List<List<CgroupSpec>> variantCgroups = new ArrayList<>();
        List<List<WorkloadRequest>> variantWorkloads = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            String p = "variants[" + i + "]";
            variantCgroups.add(Variants.cgroups(cgroups, runs.get(i).cgroups(), p, v));
            variantWorkloads.add(variantRules.workloads(workloads, runs.get(i).workloads(), cgroups, topology, p, v));
        }
        v.throwIfAny();

        List<WorkloadRequest> largest = workloads;
        for (List<WorkloadRequest> w : variantWorkloads) {
            largest = threads(w) > threads(largest) ? w : largest;
        }
        checkLimits(r, topology, largest, repetitions, Warmups.runsEach(warmup), variants, cgroups.specs.size() - 1);

        long seed = r.seed() == null ? SimulationRequest.DEFAULT_SEED : r.seed();
        boolean trace = Boolean.TRUE.equals(r.trace());
        // (the accepted request keeps the sweep as given, not its variants: planning it again gives the same grid)
        SimulationRequest accepted = new SimulationRequest(r.name(), r.topology(), kernel, cgroups.accepted,
                workloads, r.durationMs(), seed, repetitions, r.variants() == null ? null
                : variants.subList(0, r.variants().size()), trace, r.sweep(), pod == null ? null : pod.accepted(),
                r.imports(), warmup);

        TopologySpec spec = topology.spec().get();
        List<SimulationPlan.Variant> planned = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            VariantRequest variant = runs.get(i);
            List<WorkloadSpec> workloadSpecs = new ArrayList<>();
            for (WorkloadRequest w : variantWorkloads.get(i)) {
                workloadSpecs.add(Workloads.spec(w));
            }
            KernelConfig config = merge(kernel, variant.kernel());
            planned.add(new SimulationPlan.Variant(variant.label(), new EngineSpec(spec, config,
                    variantCgroups.get(i), workloadSpecs, r.durationMs() * 1000, trace).withWarmup(Warmups.spec(warmup))));
        }
        long budget = checkCost(planned, repetitions);
        return new Accepted(accepted, new SimulationPlan(seed, repetitions, budget, planned,
                pod == null ? Map.of() : pod.labels()));
    }

    /** durationMs present and positive, repetitions at least 1 (default 1): the repetitions. */
    private static int checkDurationAndRepetitions(SimulationRequest r, Violations v) {
        if (r.durationMs() == null) {
            v.add("durationMs", "required: simulated time in ms (> 0)");
        } else if (r.durationMs() <= 0) {
            v.add("durationMs", "must be > 0");
        }
        int repetitions = r.repetitions() == null ? 1 : r.repetitions();
        if (repetitions < 1) {
            v.add("repetitions", "must be >= 1");
        }
        return repetitions;
    }

    /**
     * With {@code kubernetes}, the topology, cgroups and workloads are the conversion's: a request may give them
     * only as the conversion gives them (so that an accepted request, which lists them for users to check,
     * reads back as itself), else 400 naming the field.
     */
    private static void derivedOnly(SimulationRequest r, KubernetesInput.Converted pod, Violations v) {
        if (r.topology() != null && !r.topology().equals(pod.topology())) {
            v.add("topology", "leave it out with kubernetes: the node is kubernetes.topology");
        }
        if (r.cgroups() != null && !cgroups(r.cgroups(), new Violations()).accepted.equals(pod.cgroups())) {
            v.add("cgroups", "leave it out with kubernetes: the cgroups are the pod's (the accepted request "
                    + "shows them); change a limit in the pod, or in a variant by path");
        }
        if (r.workloads() != null && !checked(r.workloads()).equals(checked(pod.workloads()))) {
            v.add("workloads", "leave it out with kubernetes: give each container's workload in "
                    + "kubernetes.workloads by container name");
        }
    }

    private static List<WorkloadRequest> checked(List<WorkloadRequest> list) {
        List<WorkloadRequest> out = new ArrayList<>();
        for (WorkloadRequest w : list) {
            out.add(w == null ? null : Workloads.check(w, w.cgroup() == null ? "/" : w.cgroup(), "w", -1,
                    new Violations()));
        }
        return out;
    }

    private static long threads(List<WorkloadRequest> workloads) {
        long n = 0;
        for (WorkloadRequest w : workloads) {
            n += Workloads.threadCount(w);
        }
        return n;
    }

    private void checkLimits(SimulationRequest r, Topologies.Resolved topology, List<WorkloadRequest> workloads,
                             int repetitions, int runsEach, List<VariantRequest> variants, int groups) {
        List<LimitExceededException.Exceeded> over = new ArrayList<>();
        long threads = 0;
        for (WorkloadRequest w : workloads) {
            threads += Workloads.threadCount(w);
        }
        limit(over, "schedsim.limits.max-cpus", limits.maxCpus(), topology.cpuCount(), "topology");
        limit(over, "schedsim.limits.max-threads", limits.maxThreads(), threads, "workloads");
        limit(over, "schedsim.limits.max-duration-ms", limits.maxDurationMs(), r.durationMs(), "durationMs");
        limit(over, "schedsim.limits.max-repetitions", limits.maxRepetitions(), repetitions, "repetitions");
        limit(over, "schedsim.limits.max-variants", limits.maxVariants(), variants.size(), "variants");
        // The groups the engine creates, not the paths listed: /a/b/c/d is four groups (each parent is created
        // unlimited), and a run's size (its report holds every group) follows them.
        limit(over, "schedsim.limits.max-cgroups", limits.maxCgroups(), groups, "cgroups");
        limit(over, "schedsim.limits.max-workloads", limits.maxWorkloads(), workloads.size(), "workloads");
        long segments = 0;
        for (WorkloadRequest w : workloads) {
            segments += w.segments() == null ? 0 : w.segments().size();
        }
        limit(over, "schedsim.limits.max-trace-segments", limits.maxTraceSegments(), segments, "workloads");
        // (each repetition simulates its warm-up runs too)
        double threadSeconds = (double) repetitions * runsEach * Math.max(1, variants.size()) * r.durationMs() / 1000.0
                * threads;
        if (threadSeconds > limits.maxThreadSeconds()) {
            over.add(new LimitExceededException.Exceeded("schedsim.limits.max-thread-seconds",
                    limits.maxThreadSeconds(), (long) Math.min(threadSeconds, Long.MAX_VALUE),
                    "workloads"));
        }
        // Overflow-safe: both factors are already bounded by the limits above or huge.
        double product = (double) topology.cpuCount() * threads;
        if (product > limits.maxCpuThreadProduct()) {
            over.add(new LimitExceededException.Exceeded("schedsim.limits.max-cpu-thread-product",
                    limits.maxCpuThreadProduct(), (long) Math.min(product, Long.MAX_VALUE), "workloads"));
        }
        if (!over.isEmpty()) {
            throw new LimitExceededException(over);
        }
    }

    /**
     * What the submission will cost, estimated from its plan (CostEstimate): 422 beyond the events or the result
     * size; else the event budget of each of its runs, far above the largest variant's estimate, so that a run
     * whose estimate was wrong stops with budget-exceeded instead of holding a worker (or its memory) for hours.
     */
    private long checkCost(List<SimulationPlan.Variant> planned, int repetitions) {
        double events = 0;
        double largest = 0;
        long resultBytes = 0;
        long largestReport = 0;
        for (SimulationPlan.Variant p : planned) {
            double e = CostEstimate.events(p.spec());
            events += e * repetitions;
            largest = Math.max(largest, e);
            long bytes = CostEstimate.reportBytes(p.spec());
            resultBytes += bytes;
            largestReport = Math.max(largestReport, bytes);
        }
        List<LimitExceededException.Exceeded> over = new ArrayList<>();
        if (events > limits.maxSubmissionEvents()) {
            over.add(new LimitExceededException.Exceeded("schedsim.limits.max-submission-events",
                    limits.maxSubmissionEvents(), (long) Math.min(events, Long.MAX_VALUE), "workloads",
                    "an estimated " + String.format(java.util.Locale.ROOT, "%.3g", events) + " engine events ("
                            + planned.size() + " variant(s) x " + repetitions + " repetition(s), each the CPUs' ticks "
                            + "and the workloads' cycles over durationMs); simulate less time, fewer threads, longer "
                            + "runUs/sleepUs cycles, or fewer variants or repetitions"));
        }
        // (the result holds every variant; a run's report one: the result is the larger)
        if (Math.max(resultBytes, largestReport) > limits.maxResultBytes()) {
            over.add(new LimitExceededException.Exceeded("schedsim.limits.max-result-bytes", limits.maxResultBytes(),
                    Math.max(resultBytes, largestReport), "cgroups", "an estimated " + Math.max(resultBytes,
                    largestReport) + " bytes of result (each variant reports every cgroup with its path, "
                    + "every workload and CPU); use fewer or shorter cgroup paths, fewer workloads or variants"));
        }
        if (!over.isEmpty()) {
            throw new LimitExceededException(over);
        }
        return CostEstimate.budget(largest, limits.maxEvents());
    }

    private static void limit(List<LimitExceededException.Exceeded> over, String name, long max, long value,
                              String field) {
        if (value > max) {
            over.add(new LimitExceededException.Exceeded(name, max, value, field));
        }
    }

    /** Validates kernel settings; returns them with defaults filled in (profile, hz, slice, features). */
    private static KernelRequest kernel(KernelRequest k, String prefix, Violations v) {
        KernelRequest in = k == null ? new KernelRequest(null, null, null, null) : k;
        KernelRequest checked = overrides(in, prefix, v);
        return new KernelRequest(checked.profile() == null ? KernelProfiles.newest().name() : checked.profile(),
                checked.hz() == null ? SimulationRequest.DEFAULT_HZ : checked.hz(),
                checked.features() == null ? Map.of() : checked.features(),
                checked.bandwidthSliceUs() == null ? SimulationRequest.DEFAULT_SLICE_US : checked.bandwidthSliceUs());
    }

    /** Validates kernel fields as given (a variant's overrides keep their nulls). */
    public static KernelRequest overrides(KernelRequest k, String prefix, Violations v) {
        if (k.profile() != null && KernelProfiles.byName(k.profile()) == null) {
            List<String> names = KernelProfiles.all().stream().map(KernelProfile::name).toList();
            v.add(prefix + ".profile", "unknown kernel profile '" + k.profile() + "'; one of " + names);
        }
        if (k.hz() != null && !HZ.contains(k.hz())) {
            v.add(prefix + ".hz", "must be 100, 250, 300 or 1000");
        }
        if (k.bandwidthSliceUs() != null && k.bandwidthSliceUs() < 1) {
            v.add(prefix + ".bandwidthSliceUs", "must be >= 1");
        }
        if (k.features() != null) {
            for (Map.Entry<String, Boolean> e : k.features().entrySet()) {
                if (Feature.byName(e.getKey()) == null) {
                    v.add(prefix + ".features." + e.getKey(), "unknown feature; see GET /api/v1/kernel-profiles");
                } else if (e.getValue() == null) {
                    v.add(prefix + ".features." + e.getKey(), "must be true or false");
                }
            }
        }
        return k;
    }

    private static KernelConfig merge(KernelRequest base, KernelRequest variant) {
        KernelRequest o = variant == null ? new KernelRequest(null, null, null, null) : variant;
        KernelProfile profile = KernelProfiles.byName(o.profile() != null ? o.profile() : base.profile());
        int hz = o.hz() != null ? o.hz() : base.hz();
        long slice = o.bandwidthSliceUs() != null ? o.bandwidthSliceUs() : base.bandwidthSliceUs();
        Map<Feature, Boolean> features = new EnumMap<>(Feature.class);
        base.features().forEach((n, b) -> features.put(Feature.byName(n), b));
        if (o.features() != null) {
            o.features().forEach((n, b) -> features.put(Feature.byName(n), b));
        }
        return KernelConfig.of(profile, hz, features, slice);
    }

    /** The cgroup tree: accepted entries, engine specs ("/" first, parents before children) and known paths. */
    public static final class Cgroups {
        public final List<CgroupRequest> accepted = new ArrayList<>();
        public final List<CgroupSpec> specs = new ArrayList<>();
        public final Set<String> paths = new HashSet<>();
    }

    private static Cgroups cgroups(List<CgroupRequest> list, Violations v) {
        Cgroups out = new Cgroups();
        Map<String, CgroupSpec> listed = new LinkedHashMap<>();
        Map<String, Integer> index = new LinkedHashMap<>();
        List<CgroupRequest> in = list == null ? List.of() : list;
        for (int i = 0; i < in.size(); i++) {
            String p = "cgroups[" + i + "]";
            CgroupRequest c = in.get(i);
            if (c == null) {
                v.add(p, "must be an object with a path");
                continue;
            }
            int before = v.size();
            CgroupSpec spec = CgroupRules.parse(c, p, v);
            if (spec == null && c.path() != null && !v.namesSince(before, p + ".path")) {
                // Its limits are wrong, its path is not: workloads in it must not get a second, false error.
                out.paths.addAll(CgroupRules.lineage(c.path()));
            }
            if (spec != null) {
                Integer previous = index.putIfAbsent(spec.path(), i);
                if (previous != null) {
                    v.add(p + ".path", "duplicate of cgroups[" + previous + "]");
                } else {
                    listed.put(spec.path(), spec);
                }
            }
            out.accepted.add(new CgroupRequest(c.path(), c.cpuMax() == null ? "max" : c.cpuMax().trim(),
                    c.cpuMaxBurst() == null ? 0L : c.cpuMaxBurst(), c.cpuWeight() == null ? 100 : c.cpuWeight()));
        }
        // Every listed path with its ancestors, in order of first mention; unlisted ancestors are unlimited.
        List<String> order = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String path : listed.keySet()) {
            for (String a : CgroupRules.lineage(path)) {
                if (seen.add(a)) {
                    order.add(a);
                }
            }
        }
        seen.add("/");
        out.paths.addAll(seen);
        out.specs.add(listed.getOrDefault("/", CgroupSpec.unlimited("/", 100)));
        order.remove("/");
        order.sort((a, b) -> Integer.compare(CgroupRules.depth(a), CgroupRules.depth(b)));
        for (String path : order) {
            out.specs.add(listed.getOrDefault(path, CgroupSpec.unlimited(path, 100)));
        }
        return out;
    }

    /** The index of the first control, format, surrogate, private-use or unassigned code point; -1 if none. */
    static int unprintable(String s) {
        for (int i = 0; i < s.length(); i += Character.charCount(s.codePointAt(i))) {
            int t = Character.getType(s.codePointAt(i));
            if (t == Character.CONTROL || t == Character.FORMAT || t == Character.SURROGATE
                    || t == Character.PRIVATE_USE || t == Character.UNASSIGNED || t == Character.LINE_SEPARATOR
                    || t == Character.PARAGRAPH_SEPARATOR) {
                return i;
            }
        }
        return -1;
    }

    private static List<WorkloadRequest> workloads(List<WorkloadRequest> list, Cgroups cgroups,
                                                   Topologies.Resolved topology, Violations v) {
        List<WorkloadRequest> out = new ArrayList<>();
        if (list == null || list.isEmpty()) {
            v.add("workloads", "list at least one workload");
            return out;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String p = "workloads[" + i + "]";
            WorkloadRequest w = list.get(i);
            if (w == null) {
                v.add(p, "must be an object");
                continue;
            }
            if (w.name() == null || w.name().isBlank()) {
                v.add(p + ".name", "required, non-empty");
            } else if (w.name().length() > 128) {
                v.add(p + ".name", "at most 128 characters");
            } else if (unprintable(w.name()) >= 0) {
                // Names become Prometheus labels, report headings and file names: no control or format
                // characters (NUL, newlines, U+202E that reverses the text after it).
                v.add(p + ".name", String.format("printable characters only; U+%04X at %d is not",
                        w.name().codePointAt(unprintable(w.name())), unprintable(w.name())));
            } else if (!names.add(w.name())) {
                v.add(p + ".name", "duplicate workload name '" + w.name() + "'");
            }
            String cgroup = w.cgroup() == null ? "/" : w.cgroup();
            if (!cgroups.paths.contains(cgroup)) {
                v.add(p + ".cgroup", "unknown cgroup '" + cgroup + "'; list it under cgroups");
            }
            out.add(Workloads.check(w, cgroup, p, topology == null ? -1 : topology.cpuCount(), v));
        }
        return out;
    }
}
