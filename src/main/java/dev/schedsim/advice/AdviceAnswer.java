package dev.schedsim.advice;

import java.util.Comparator;
import java.util.List;

/**
 * The advisor's answer: the recommended limits with what they are predicted to give, the request's own setting for
 * comparison, the bracket (the largest quota tried below the answer that failed), every setting tried, and whether
 * the figures were monotone in the quota where the search looked.
 */
public record AdviceAnswer(Recommendation recommendation, Candidate current, Candidate bracket,
                           List<Candidate> candidates, boolean monotone, int steps, String summary,
                           String answer, Candidate unlimited, RemoveLimit removeLimit, AdviceApply.Apply apply,
                           ObservedAnswer observed) {

    public AdviceAnswer(Recommendation recommendation, Candidate current, Candidate bracket,
                        List<Candidate> candidates, boolean monotone, int steps, String summary, String answer,
                        Candidate unlimited, RemoveLimit removeLimit, AdviceApply.Apply apply) {
        this(recommendation, current, bracket, candidates, monotone, steps, summary, answer, unlimited, removeLimit,
                apply, null);
    }

    /** Without the "what to apply" parts: the search's own answer. */
    AdviceAnswer(Recommendation recommendation, Candidate current, Candidate bracket, List<Candidate> candidates,
                 boolean monotone, int steps, String summary) {
        this(recommendation, current, bracket, candidates, monotone, steps, summary,
                recommendation == null ? "none" : "limit", null, null, null);
    }

    /** Removing the limit as the answer: why it is the better one, and what it costs. */
    public record RemoveLimit(String why, String cost) {
    }

    /** cpu.max, cpu.max.burst and a pod's limits.cpu for the answer. */
    public record Recommendation(String cpuMax, long cpuMaxBurst, String limitsCpu, long quotaUs, long periodUs,
                                 Candidate predicted) {
    }

    /** A setting and its outcome (worst figure over the repetitions). */
    public record Candidate(String cpuMax, long cpuMaxBurst, boolean met, Double throttledPeriodsPct,
                            Double p99WakeupLatencyUs, Double p99RequestLatencyUs, Double completionUs,
                            @io.swagger.v3.oas.annotations.media.Schema(description = "the cgroup's mean CPU use, "
                                    + "CPUs (usage_usec over the simulated time; the largest repetition's)")
                            Double usageCpus,
                            @io.swagger.v3.oas.annotations.media.Schema(description = "an observed advice: the "
                                    + "fitted workload's index in observed.workloads", types = {"integer", "null"})
                            Integer workload) {
        public Candidate(String cpuMax, long cpuMaxBurst, boolean met, Double throttledPeriodsPct,
                         Double p99WakeupLatencyUs, Double p99RequestLatencyUs, Double completionUs,
                         Double usageCpus) {
            this(cpuMax, cpuMaxBurst, met, throttledPeriodsPct, p99WakeupLatencyUs, p99RequestLatencyUs,
                    completionUs, usageCpus, null);
        }

        static Candidate of(AdviceSearch.Outcome o, String cpuMax, long burst) {
            return new Candidate(cpuMax, burst, o.met(), o.throttledPeriodsPct(), o.p99WakeupLatencyUs(),
                    o.p99RequestLatencyUs(), o.completionUs(), o.usageCpus(), o.setting().workload());
        }

        static Candidate of(AdviceSearch.Outcome o) {
            return of(o, o.setting().cpuMax(), o.setting().burstUs());
        }
    }

    /** The answer of a finished search; {@code currentCpuMax} is the request's own cgroup setting. */
    static AdviceAnswer of(AdviceSearch.State s, String currentCpuMax, long currentBurst) {
        List<Candidate> tried = s.tried().stream()
                .sorted(Comparator.comparingLong((AdviceSearch.Outcome o) -> o.setting().periodUs())
                        .thenComparingLong(o -> o.setting().burstUs())
                        .thenComparingInt(o -> o.setting().workload() == null ? -1 : o.setting().workload())
                        .thenComparingLong(o -> o.setting().quotaUs()))
                .map(Candidate::of).toList();
        Candidate current = s.current() == null ? null : Candidate.of(s.current(), currentCpuMax, currentBurst);
        AdviceSearch.Point best = AdviceSearch.best(s);
        boolean monotone = AdviceSearch.monotone(s);
        if (best == null) {
            return new AdviceAnswer(null, current, null, tried, monotone, s.step(),
                    "No setting in the search space meets the objective: every grid point failed even at the "
                            + "largest quota; widen quotaUs.max or relax the objective.");
        }
        AdviceSearch.Setting rec = best.at(best.passingUs());
        Candidate predicted = Candidate.of(AdviceSearch.outcome(s, rec));
        Candidate bracket = null;
        if (best.failingUs() != null) {
            bracket = Candidate.of(AdviceSearch.outcome(s, best.at(best.failingUs())));
        }
        String summary = "cpu.max \"" + rec.cpuMax() + "\"" + (rec.burstUs() > 0 ? ", cpu.max.burst " + rec.burstUs() : "")
                + " (limits.cpu " + rec.millicores() + "m) is the smallest limit that met the objective in every "
                + "repetition" + (bracket != null ? "; " + bracket.cpuMax() + " did not" : "; so did the smallest quota searched")
                + (monotone ? "." : "; the figures were not monotone in the quota (a larger quota failed where a "
                        + "smaller one passed), so check the candidates.");
        return new AdviceAnswer(new Recommendation(rec.cpuMax(), rec.burstUs(), rec.millicores() + "m",
                rec.quotaUs(), rec.periodUs(), predicted), current, bracket, tried, monotone, s.step(), summary);
    }
}
