package dev.schedsim.advice;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An observed advice's answer beyond the limit: the family, how the fit was done and with what noise, the
 * workloads that fit and were sized, each one's own smallest passing quota, and the answer's uncertainty as the
 * range of those quotas (the answer is its top: it meets the objective whichever of them the container runs).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "AdviceObserved")
public record ObservedAnswer(
        @Schema(description = "the family the workloads were fitted in") String family,
        @Schema(description = "how the fit was done") String method,
        @Schema(description = "what noise a window is reproduced within") String noise,
        @Schema(description = "candidates simulated") int simulated,
        @Schema(description = "candidates that reproduced every window") int fitting,
        @Schema(description = "the fitting workloads sized (all, or as many as a step's variants allow, spread "
                + "over them by demand and cycle)") List<Workload> workloads,
        @Schema(description = "the smallest and the largest of the sized workloads' own answers, µs of quota per "
                + "period; null when one of them met the objective nowhere in the search") Range quotaUs,
        @Schema(description = "the uncertainty in one sentence") String uncertainty) {

    /** A fitted workload and its own smallest passing quota (null: none in the search). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "AdviceObservedWorkload")
    public record Workload(int index, long runUs, long sleepUs, double demandCpus, Long quotaUs, String limitsCpu) {
    }

    @Schema(name = "AdviceObservedRange")
    public record Range(long min, long max, String minLimitsCpu, String maxLimitsCpu) {
    }

    /** The answer's observed part once the search is done; null for a described advice. */
    static ObservedAnswer of(AdviceSpec spec, AdviceSearch.State s) {
        AdviceSpec.Observed o = spec.observed();
        if (o == null) {
            return null;
        }
        AdviceSearch.Point best = AdviceSearch.best(s);
        List<Workload> workloads = new ArrayList<>();
        Long min = null;
        Long max = null;
        boolean all = true;
        int threads = spec.request().path("workloads").path(0).path("threads").asInt(1);
        for (int i = 0; i < o.workloads().size(); i++) {
            ObservedFamily.Candidate c = o.workloads().get(i);
            Long q = null;
            long period = best == null ? 0 : best.periodUs();
            if (best != null) {
                for (AdviceSearch.Point p : AdviceSearch.workloads(s, best.periodUs(), best.burstUs())) {
                    if (p.workload() == i) {
                        q = p.passingUs();
                    }
                }
            }
            all &= q != null;
            if (q != null) {
                min = min == null ? q : Math.min(min, q);
                max = max == null ? q : Math.max(max, q);
            }
            workloads.add(new Workload(i, c.runUs(), c.sleepUs(), round(c.demandCpus(threads)), q,
                    q == null ? null : millicores(q, period) + "m"));
        }
        Range range = all && min != null ? new Range(min, max, millicores(min, best.periodUs()) + "m",
                millicores(max, best.periodUs()) + "m") : null;
        String uncertainty;
        if (range == null) {
            uncertainty = "Not every fitting workload met the objective in the search: there is no limit that "
                    + "holds for all of them in quotaUs; widen it or relax the objective.";
        } else {
            uncertainty = String.format(Locale.ROOT, "%d of %d candidates reproduced the counters%s; their own "
                    + "answers range from %s to %s (quota %d..%d µs per %d µs): the advice is the top of the range, "
                    + "so it holds whichever of them the container runs.", o.fitting(), o.fit().tried().size(),
                    o.workloads().size() < o.fitting() ? " (" + o.workloads().size() + " of them sized, spread "
                            + "over their demand and cycle)" : "", range.minLimitsCpu(), range.maxLimitsCpu(),
                    min, max, best.periodUs());
        }
        return new ObservedAnswer(o.fit().family(), o.fit().method(), o.fit().noise(), o.fit().tried().size(),
                o.fitting(), workloads, range, uncertainty);
    }

    private static long millicores(long quotaUs, long periodUs) {
        return new AdviceSearch.Setting(quotaUs, periodUs, 0).millicores();
    }

    private static double round(double x) {
        return Math.round(x * 1000) / 1000.0;
    }
}
