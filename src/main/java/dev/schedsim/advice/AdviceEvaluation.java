package dev.schedsim.advice;

import dev.schedsim.result.ResultDocument;
import java.util.List;

/**
 * Whether a setting met the objective, read off its variant in the step's result document: every repetition's
 * figures (the variant's runs when there are several, else the variant itself) against every objective given; the
 * outcome keeps the worst value of each figure over the repetitions.
 */
final class AdviceEvaluation {
    private AdviceEvaluation() {
    }

    static AdviceSearch.Outcome evaluate(AdviceSpec spec, AdviceSearch.Setting setting, ResultDocument.Variant v) {
        List<Figures> runs = v.runs() != null && !v.runs().isEmpty()
                ? v.runs().stream().map(r -> figures(spec, r.cgroups(), r.workloads(), r.simulatedUs())).toList()
                : List.of(figures(spec, v.cgroups(), v.workloads(), v.simulatedUs()));
        AdviceSpec.Objective o = spec.objective();
        boolean met = true;
        Figures worst = null;
        for (Figures f : runs) {
            met &= within(f.throttledPct, o.maxThrottledPeriodsPct()) && within(f.p99Wakeup, o.maxP99WakeupLatencyUs())
                    && within(f.p99Request, o.maxP99RequestLatencyUs()) && within(f.completion, o.maxCompletionUs());
            worst = worst == null ? f : worst.max(f);
        }
        return new AdviceSearch.Outcome(setting, met, worst.throttledPct, worst.p99Wakeup, worst.p99Request,
                worst.completion, worst.usageCpus);
    }

    /** A figure within its bound; a missing figure (a workload that never completed) is not. */
    private static boolean within(Double value, Double bound) {
        return bound == null || (value != null && value <= bound);
    }

    /** One repetition's figures; {@code usageCpus} is the cgroup's mean CPU use (usage_usec / simulated µs). */
    private record Figures(Double throttledPct, Double p99Wakeup, Double p99Request, Double completion,
                           Double usageCpus) {
        Figures max(Figures o) {
            return new Figures(mx(throttledPct, o.throttledPct), mx(p99Wakeup, o.p99Wakeup),
                    mx(p99Request, o.p99Request), completion == null || o.completion == null ? null
                    : Double.valueOf(Math.max(completion, o.completion)), mx(usageCpus, o.usageCpus));
        }

        private static Double mx(Double a, Double b) {
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            return Math.max(a, b); // (as statements: a conditional expression would unbox a null Double)
        }
    }

    private static Figures figures(AdviceSpec spec, List<ResultDocument.Cgroup> cgroups,
                                   List<ResultDocument.Workload> workloads, Double simulatedUs) {
        Double throttled = null;
        Double usage = null;
        for (ResultDocument.Cgroup c : cgroups) {
            if (c.path().equals(spec.cgroup())) {
                ResultDocument.CpuStat s = c.cpuStat();
                double periods = s.nrPeriods() == null ? 0 : s.nrPeriods();
                throttled = periods == 0 ? 0.0 : 100.0 * (s.nrThrottled() == null ? 0 : s.nrThrottled()) / periods;
                if (s.usageUsec() != null && simulatedUs != null && simulatedUs > 0) {
                    usage = s.usageUsec() / simulatedUs;
                }
            }
        }
        Double wake = null;
        Double request = null;
        Double completion = null;
        for (ResultDocument.Workload w : workloads) {
            if (w.name().equals(spec.workload())) {
                wake = w.wakeupLatencyUs() == null ? null : w.wakeupLatencyUs().p99();
                request = w.requestLatencyUs() == null ? null : w.requestLatencyUs().p99();
                completion = w.completionUs();
            }
        }
        return new Figures(throttled, wake, request, completion, usage);
    }
}
