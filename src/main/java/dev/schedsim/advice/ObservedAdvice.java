package dev.schedsim.advice;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.Violations;
import dev.schedsim.json.Json;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationRequest;
import java.util.List;
import java.util.Locale;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * An advice from observed counters made into a described one: the windows read and fitted, and the request the
 * search then sizes as any other (the fitted workloads in one cgroup at the first window's cpu.max), so that it is
 * checked, admitted and run by the one path every advice takes. Only the throttled-periods objective: the counters
 * say nothing about the latencies of a workload the advisor only fitted.
 */
@Component
class ObservedAdvice {
    private final ObservedFit fit;
    private final RequestReader reader;
    private final Limits limits;

    ObservedAdvice(ObservedFit fit, RequestReader reader, Limits limits) {
        this.fit = fit;
        this.reader = reader;
        this.limits = limits;
    }

    /** The described request and what it was fitted from. */
    record Described(AdviceRequest request, AdviceSpec.Observed observed) {
    }

    /** Fields that go with observed only, given without it. */
    static void onlyWithObserved(AdviceRequest r, Violations v) {
        if (r.observed() == null && r.threads() != null) {
            v.add("threads", "goes with observed (the fitted family's threads); a described workload has its own");
        }
        if (r.observed() == null && r.topology() != null) {
            v.add("topology", "goes with observed; with request, give request.topology (with kubernetes, "
                    + "kubernetes.topology)");
        }
    }

    Described describe(AdviceRequest r) {
        Violations v = new Violations();
        if (r.request() != null || r.kubernetes() != null) {
            v.add(r.request() != null ? "request" : "kubernetes", "give observed or a described workload "
                    + "(request, kubernetes), not both");
        }
        for (String[] f : new String[][] {{"cgroup", r.cgroup()}, {"workload", r.workload()},
                {"durationMs", r.durationMs() == null ? null : ""}, {"seed", r.seed() == null ? null : ""}}) {
            if (f[1] != null) {
                v.add(f[0], "leave it out with observed: the observed cgroup and its fitted workloads are sized");
            }
        }
        if (r.warmup() != null) {
            v.add("warmup", "leave it out with observed: the fit simulates each window as observed, some 100 "
                    + "candidates, and warm-up runs would multiply them; to size with warm-up runs, describe the "
                    + "workload (request with request.warmup, or kubernetes with warmup)");
        }
        Integer threads = r.threads();
        if (threads == null) {
            v.add("threads", "required with observed: how many threads the workload runs (ps -L, or the "
                    + "container's worker count); the family fitted is that many periodic threads");
        } else if (threads < 1 || threads > ObservedCounters.MAX_THREADS) {
            v.add("threads", "must be in 1.." + ObservedCounters.MAX_THREADS);
        }
        if (r.topology() == null) {
            v.add("topology", "required with observed: the node the counters were read on, e.g. "
                    + "{\"preset\": \"validation-2c\"} (GET /api/v1/topologies/presets)");
        }
        AdviceRequest.Objective o = ObjectivePreset.resolve(r.objective(), v);
        if (o != null && (o.maxP99WakeupLatencyUs() != null || o.maxP99RequestLatencyUs() != null
                || o.maxCompletionUs() != null)) {
            v.add("objective", "from observed counters only maxThrottledPeriodsPct (or a preset): the counters "
                    + "do not show the latencies or completion of the workload fitted to them");
        }
        boolean okThreads = threads != null && threads >= 1 && threads <= ObservedCounters.MAX_THREADS;
        List<ObservedCounters.Window> windows = ObservedCounters.read(r.observed(), okThreads ? threads : null, v);
        v.throwIfAny();

        ObservedFit.Result result = fit.fit(windows, threads, r.topology());
        List<ObservedFit.Tried> fitting = result.fitting();
        if (fitting.isEmpty()) {
            throw InvalidRequestException.of("observed", noFit(result));
        }
        int grid = r.search() == null ? 1 : Math.max(1, size(r.search().periodsUs()) * size(r.search().burstsUs()));
        // (the first step sizes each workload at both ends of its range: two variants each per grid point)
        int k = (int) Math.max(1, limits.maxVariants() / (2L * grid));
        List<ObservedFamily.Candidate> sized = ObservedFamily.spread(fitting, k).stream()
                .map(t -> new ObservedFamily.Candidate(t.runUs(), t.sleepUs())).toList();
        ObservedCounters.Window first = windows.get(0);
        long periodUs = first.periodUs();
        AdviceRequest.Search search = r.search() != null ? r.search() : new AdviceRequest.Search(
                new AdviceRequest.Range(CgroupSpec.MIN_QUOTA_PERIOD_US, (long) threads * periodUs), null, null, null);
        AdviceRequest described = new AdviceRequest(r.name(), request(r, windows, sized.get(0)), null, null, null,
                ObservedFit.CGROUP, null, r.objective(), search, r.repetitions());
        return new Described(described, new AdviceSpec.Observed(result, sized, fitting.size()));
    }

    /** The request the search sizes: the first fitted workload (the others are variants) at the first cpu.max. */
    private SimulationRequest request(AdviceRequest r, List<ObservedCounters.Window> windows,
                                      ObservedFamily.Candidate w) {
        ObjectNode q = Json.REQUEST.createObjectNode();
        q.set("topology", Json.REQUEST.valueToTree(r.topology()));
        q.putArray("cgroups").addObject().put("path", ObservedFit.CGROUP).put("cpuMax", windows.get(0).cpuMax());
        q.putArray("workloads").add(w.workload(r.threads()));
        long longest = windows.stream().mapToLong(ObservedCounters.Window::windowUs).max().orElse(1_000_000);
        q.put("durationMs", Math.max(1000, Math.min(longest, ObservedFit.MAX_SIMULATED_US) / 1000));
        return reader.read(Json.REQUEST.writeValueAsString(q), SimulationRequest.class);
    }

    /** Why nothing fitted, with the closest candidate and what to try. */
    private static String noFit(ObservedFit.Result result) {
        ObservedFit.Tried best = result.tried().stream().min(java.util.Comparator.comparingDouble(
                ObservedFit.Tried::score)).orElseThrow();
        StringBuilder b = new StringBuilder("no workload of the family (" + result.family() + ") reproduces every "
                + "window within its noise (" + result.tried().size() + " simulated). The closest, runUs "
                + best.runUs() + " sleepUs " + best.sleepUs() + String.format(Locale.ROOT, " (%.2f CPUs), is %.1f "
                + "noise widths off:", best.demandCpus(), best.score()));
        for (int i = 0; i < best.windows().size(); i++) {
            ObservedCounters.Window w = result.observed().get(i);
            ObservedFit.Figures f = best.windows().get(i);
            b.append(String.format(Locale.ROOT, " observed[%d] %.1f %% throttled, %.3f CPUs; simulated %.1f %%, "
                    + "%.3f CPUs;", i, 100 * w.throttledShare(), w.usageCpus(), f.throttledPeriodsPct(),
                    f.usageCpus()));
        }
        return b + " Check threads (the family has exactly that many), that each window's cpuMax was in force all "
                + "through it, and the topology; fitting one window at a time shows which one disagrees.";
    }

    private static int size(List<?> l) {
        return l == null || l.isEmpty() ? 1 : l.size();
    }
}
