package dev.schedsim.advice;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.LimitExceededException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.Violation;
import dev.schedsim.http.Violations;
import dev.schedsim.json.Json;
import dev.schedsim.kubernetes.Manifests;
import dev.schedsim.request.CgroupRules;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.simulations.RequestValidator;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The rules of an advice request: every violation at once (400), the grid's size against
 * {@code schedsim.limits.max-variants} (422), and the embedded request checked as the first step will submit it
 * (all of that step's settings as variants), so that an advice that is accepted can run.
 */
@Component
class AdviceRules {
    static final int DEFAULT_REPETITIONS = 2;
    static final long DEFAULT_RESOLUTION_US = 1_000;

    private final RequestValidator validator;
    private final RequestReader reader;
    private final AdviceStepsAdapter steps;
    private final Limits limits;
    private final ObservedAdvice observed;

    AdviceRules(RequestValidator validator, RequestReader reader, AdviceStepsAdapter steps, Limits limits,
                ObservedAdvice observed) {
        this.observed = observed;
        this.validator = validator;
        this.reader = reader;
        this.steps = steps;
        this.limits = limits;
    }

    AdviceSpec accept(AdviceRequest r) {
        if (r.observed() == null) {
            return accept(r, null);
        }
        // from observed counters: fitted first, then sized like the described request it became
        ObservedAdvice.Described d = observed.describe(r);
        return accept(d.request(), d.observed());
    }

    private AdviceSpec accept(AdviceRequest r, AdviceSpec.Observed fitted) {
        Violations v = new Violations();
        ObservedAdvice.onlyWithObserved(r, v);
        if (r.name() != null && !SimulationRequest.NAME.matcher(r.name()).matches()) {
            v.add("name", "must match [A-Za-z0-9._-]{1,64}");
        }
        Target at = target(r, v);
        SimulationRequest q = at.request();
        if (q.variants() != null && !q.variants().isEmpty()) {
            v.add("request.variants", "the advisor makes the variants (one per setting): leave them out");
        }
        if (q.sweep() != null) {
            v.add("request.sweep", "the advisor makes the variants (one per setting): leave it out");
        }
        SimulationRequest.CgroupRequest sized = sized(q, at.cgroup(), v);
        AdviceRequest.Objective o = ObjectivePreset.resolve(r.objective(), v);
        boolean aboutWorkload = objective(o, v);
        workload(q, at.workload(), aboutWorkload, o, v);
        AdviceRequest.Search given = r.search() == null && at.container() != null
                ? podSearch(at, sized) : r.search();
        AdviceSpec.Search search = search(given, sized, v);
        int repetitions = r.repetitions() == null ? DEFAULT_REPETITIONS : r.repetitions();
        if (repetitions < 1) {
            v.add("repetitions", "must be >= 1");
        }
        v.throwIfAny();

        AdviceSpec spec = new AdviceSpec(r.name(), (JsonNode) Json.REQUEST.valueToTree(q), at.cgroup(),
                at.workload(), new AdviceSpec.Objective(o.maxThrottledPeriodsPct(), o.maxP99WakeupLatencyUs(),
                        o.maxP99RequestLatencyUs(), o.maxCompletionUs(), o.preset()), search, repetitions, at.pod(),
                at.container(), null, null, fitted);
        int cpus = checkFirstStep(spec);
        return new AdviceSpec(spec.name(), spec.request(), spec.cgroup(), spec.workload(), spec.objective(),
                spec.search(), spec.repetitions(), spec.pod(), spec.container(), cpus, null, fitted);
    }

    /**
     * The request to size, the cgroup and the workload: as given, or those of a pod's container (then
     * {@code container} is its name and {@code nodeCpus} the node's CPUs).
     */
    private record Target(SimulationRequest request, String cgroup, String workload, AdviceSpec.Pod pod,
                          String container, int nodeCpus) {
    }

    /**
     * A pod advice without search: quotas on the sized cgroup's period from the container's request (10m without
     * one: below that a limit is no use) to the node's CPUs, beyond which a limit cannot bind.
     */
    private static AdviceRequest.Search podSearch(Target at, SimulationRequest.CgroupRequest sized) {
        long period = CgroupRules.periodOf(sized == null ? null : sized.cpuMax());
        long requestMilli = 0;
        for (JsonNode c : Manifests.containers(at.request().kubernetes().pod())) {
            if (c.path("name").asString("").equals(at.container())) {
                requestMilli = Manifests.cpuRequestMilli(c);
            }
        }
        long min = Math.max(CgroupSpec.MIN_QUOTA_PERIOD_US, Math.max(10, requestMilli) * period / 1000);
        long max = Math.max(min, (long) at.nodeCpus() * period);
        return new AdviceRequest.Search(new AdviceRequest.Range(min, max), null, null, null);
    }

    private Target target(AdviceRequest r, Violations v) {
        SimulationRequest q = r.request();
        if (r.kubernetes() == null) {
            if (q == null) {
                v.add("request", "required: the simulation request to size, as for POST /api/v1/simulations (or "
                        + "kubernetes: a pod)");
                v.throwIfAny();
            }
            // (the pod's own fields: a request carries its own, which these would silently not override)
            if (r.durationMs() != null) {
                v.add("durationMs", "with request, give request.durationMs (durationMs is for kubernetes)");
            }
            if (r.seed() != null) {
                v.add("seed", "with request, give request.seed (seed is for kubernetes)");
            }
            if (r.warmup() != null) {
                v.add("warmup", "with request, give request.warmup (warmup is for kubernetes)");
            }
            return new Target(q, r.cgroup(), r.workload(), null, null, 0);
        }
        if (q != null) {
            v.add("request", "give either request or kubernetes, not both");
        }
        if (r.cgroup() != null) {
            v.add("cgroup", "leave it out with kubernetes: the container's cgroup is sized");
        }
        v.throwIfAny();
        RequestValidator.Accepted accepted = pod(r);
        q = accepted.request();
        String container = r.kubernetes().container();
        SimulationRequest.WorkloadRequest w = q.workloads().stream().filter(x -> x.name().equals(container))
                .findFirst().orElse(null);
        if (w == null) {
            v.add("kubernetes.container", (container == null ? "required" : "'" + container + "' is not one")
                    + ": the container whose limits.cpu is sought, one of "
                    + q.workloads().stream().map(SimulationRequest.WorkloadRequest::name).toList());
            v.throwIfAny();
        }
        return new Target(q, w.cgroup(), r.workload() == null ? container : r.workload(), podLimit(q, w.cgroup()),
                container, cpus(accepted.plan()));
    }

    /** The request's entry of the cgroup to size, or null after a violation. */
    private static SimulationRequest.CgroupRequest sized(SimulationRequest q, String cgroup, Violations v) {
        List<String> paths = new ArrayList<>();
        SimulationRequest.CgroupRequest sized = null;
        for (SimulationRequest.CgroupRequest c : q.cgroups() == null ? List.<SimulationRequest.CgroupRequest>of()
                : q.cgroups()) {
            if (c == null) {
                continue; // (the request's validation names it)
            }
            paths.add(c.path());
            if (c.path() != null && c.path().equals(cgroup)) {
                sized = c;
            }
        }
        if (cgroup == null) {
            v.add("cgroup", "required: the cgroup whose limit is sought, one of " + paths);
        } else if (sized == null) {
            v.add("cgroup", "'" + cgroup + "' is not one of the request's cgroups " + paths);
        }
        return sized;
    }

    /** Checks the objective; true when it is about a workload (latency or completion). */
    private static boolean objective(AdviceRequest.Objective o, Violations v) {
        boolean aboutWorkload = o != null && (o.maxP99WakeupLatencyUs() != null || o.maxP99RequestLatencyUs() != null
                || o.maxCompletionUs() != null);
        if (o == null || (o.maxThrottledPeriodsPct() == null && !aboutWorkload)) {
            v.add("objective", "give at least one of maxThrottledPeriodsPct, maxP99WakeupLatencyUs, "
                    + "maxP99RequestLatencyUs, maxCompletionUs");
        } else {
            nonNegative(o.maxThrottledPeriodsPct(), "objective.maxThrottledPeriodsPct", v);
            nonNegative(o.maxP99WakeupLatencyUs(), "objective.maxP99WakeupLatencyUs", v);
            nonNegative(o.maxP99RequestLatencyUs(), "objective.maxP99RequestLatencyUs", v);
            nonNegative(o.maxCompletionUs(), "objective.maxCompletionUs", v);
        }
        return aboutWorkload;
    }

    /** The workload an objective is about: one of the request's, with a request latency if one is asked for. */
    private static void workload(SimulationRequest q, String workload, boolean aboutWorkload,
                                 AdviceRequest.Objective o, Violations v) {
        SimulationRequest.WorkloadRequest target = null;
        List<String> names = new ArrayList<>();
        for (SimulationRequest.WorkloadRequest w : q.workloads() == null ? List.<SimulationRequest.WorkloadRequest>of()
                : q.workloads()) {
            if (w == null) {
                continue; // (the request's validation names it)
            }
            names.add(w.name());
            if (w.name() != null && w.name().equals(workload)) {
                target = w;
            }
        }
        if (workload != null && target == null) {
            v.add("workload", "'" + workload + "' is not one of the request's workloads " + names);
        } else if (workload == null && aboutWorkload) {
            v.add("workload", "required for a latency or completion objective: one of " + names);
        }
        if (o != null && o.maxP99RequestLatencyUs() != null && target != null
                && !("schbench".equals(target.type()) && target.rps() != null && target.rps() > 0)) {
            v.add("objective.maxP99RequestLatencyUs", "only a schbench workload with rps has a request latency; '"
                    + target.name() + "' is " + target.type());
        }
    }

    /** The search space with its defaults (the sized cgroup's period, no burst, 1 ms resolution). */
    private static AdviceSpec.Search search(AdviceRequest.Search s, SimulationRequest.CgroupRequest sized,
                                            Violations v) {
        long min = 0;
        long max = 0;
        if (s == null || s.quotaUs() == null || s.quotaUs().min() == null || s.quotaUs().max() == null) {
            v.add("search.quotaUs", "required: {\"min\": µs, \"max\": µs}, e.g. {\"min\": 10000, \"max\": 200000}");
        } else {
            min = s.quotaUs().min();
            max = s.quotaUs().max();
            if (min < CgroupSpec.MIN_QUOTA_PERIOD_US) {
                v.add("search.quotaUs.min", "must be >= " + CgroupSpec.MIN_QUOTA_PERIOD_US + " (the kernel's least quota)");
            }
            if (max < min) {
                v.add("search.quotaUs.max", "must be >= min (" + min + ")");
            }
        }
        long defaultPeriod = CgroupRules.periodOf(sized == null ? null : sized.cpuMax());
        List<Long> periods = s == null || s.periodsUs() == null || s.periodsUs().isEmpty() ? List.of(defaultPeriod)
                : s.periodsUs();
        for (int i = 0; i < periods.size(); i++) {
            Long p = periods.get(i);
            if (p == null || p < CgroupSpec.MIN_QUOTA_PERIOD_US || p > CgroupSpec.MAX_PERIOD_US) {
                v.add("search.periodsUs[" + i + "]", "must be in " + CgroupSpec.MIN_QUOTA_PERIOD_US + ".."
                        + CgroupSpec.MAX_PERIOD_US);
            }
        }
        List<Long> bursts = s == null || s.burstsUs() == null || s.burstsUs().isEmpty() ? List.of(0L) : s.burstsUs();
        for (int i = 0; i < bursts.size(); i++) {
            if (bursts.get(i) == null || bursts.get(i) < 0) {
                v.add("search.burstsUs[" + i + "]", "must be >= 0");
            }
        }
        long resolution = s == null || s.resolutionUs() == null ? DEFAULT_RESOLUTION_US : s.resolutionUs();
        if (resolution < 1) {
            v.add("search.resolutionUs", "must be >= 1");
        }
        // (List.copyOf throws on a null entry: only once the violations above were thrown)
        return v.size() > 0 ? null : new AdviceSpec.Search(new AdviceSpec.Range(min, max), List.copyOf(periods),
                List.copyOf(bursts), resolution);
    }

    /**
     * The first step's grid against {@code schedsim.limits.max-variants} (422), and its simulation checked as it
     * will be submitted: the request's own rules and limits, its violations named under {@code request}.
     */
    private int checkFirstStep(AdviceSpec spec) {
        AdviceSpec.Search s = spec.search();
        List<AdviceSearch.Setting> first = AdviceSearch.next(AdviceSearch.start(s.quotaUs().min(), s.quotaUs().max(),
                s.resolutionUs(), s.periodsUs(), s.burstsUs(), spec.workloads()));
        if (first.isEmpty()) {
            throw InvalidRequestException.of("search.burstsUs", "every burst is above quotaUs.max: nothing to search");
        }
        // (and the request as it is, and without a limit; an observed advice's current setting is the observed)
        long variants = first.size() + (spec.observed() == null ? 2L : 0L);
        if (variants > limits.maxVariants()) {
            throw new LimitExceededException(List.of(new LimitExceededException.Exceeded(
                    "schedsim.limits.max-variants", limits.maxVariants(), variants, "search")));
        }
        try {
            return cpus(validator.accept(reader.read(steps.stepRequest(spec, first, spec.observed() == null,
                    "advice-check"),
                    SimulationRequest.class)).plan());
        } catch (InvalidRequestException e) {
            List<Violation> prefixed = new ArrayList<>();
            e.violations().forEach(x -> prefixed.add(new Violation("request." + x.field(), x.message())));
            throw new InvalidRequestException(e.malformed(), prefixed, e.kind());
        }
    }

    /** The simulation request of a pod to size, as accepted (its cgroups and workloads derived). */
    private RequestValidator.Accepted pod(AdviceRequest r) {
        AdviceRequest.Kubernetes k = r.kubernetes();
        SimulationRequest q = new SimulationRequest(r.name(), null, null, null, null,
                r.durationMs() == null ? DEFAULT_POD_DURATION_MS : r.durationMs(), r.seed(), null, null, null, null,
                new SimulationRequest.KubernetesRequest(k.pod(), k.topology(), k.workloads(), k.runtime(),
                        k.cpuCFSQuotaPeriod()), null, r.warmup());
        // (the warm-up's rules and 400s are the simulation request's: warmup.runs, warmup.gapMs)
        return validator.accept(q);
    }

    /**
     * The pod cgroup above {@code container} when the kubelet limits it (every container has a limit,
     * ResourceConfigForPod): its path and the quota of the other containers (µs per the same period); else null.
     */
    static AdviceSpec.Pod podLimit(SimulationRequest q, String container) {
        String podPath = container.substring(0, container.lastIndexOf('/'));
        long podQuota = -1;
        long containerQuota = -1;
        for (SimulationRequest.CgroupRequest c : q.cgroups()) {
            long quota = CgroupRules.quotaOf(c.cpuMax());
            if (c.path().equals(podPath)) {
                podQuota = quota;
            } else if (c.path().equals(container)) {
                containerQuota = quota;
            }
        }
        return podQuota < 0 ? null : new AdviceSpec.Pod(podPath, podQuota - Math.max(0, containerQuota));
    }

    static final long DEFAULT_POD_DURATION_MS = 10_000;

    /** The machine's CPUs (every variant of a plan runs on the same one). */
    private static int cpus(dev.schedsim.request.SimulationPlan plan) {
        return plan.variants().get(0).spec().topology().cpuCount();
    }

    private static void nonNegative(Double x, String field, Violations v) {
        if (x != null && !(x >= 0)) {
            v.add(field, "must be >= 0");
        }
    }
}
