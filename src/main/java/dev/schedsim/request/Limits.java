package dev.schedsim.request;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code schedsim.limits.*}: what one simulation may ask for. Beyond them a request gets 422 naming the limit.
 * {@code maxEvents} is the event budget of every engine run; a run that needs more fails with
 * {@code budget-exceeded}. {@code maxThreadSeconds} bounds a submission's work: runs (variants x repetitions) x
 * simulated seconds x threads; {@code maxCgroups}, {@code maxWorkloads} and {@code maxTraceSegments} (over all
 * trace workloads) bound its size. {@code maxSubmissionEvents} bounds what a submission costs: the engine events its
 * runs are estimated to process ({@link CostEstimate}), summed over variants x repetitions; {@code maxResultBytes}
 * what it stores: the estimated size of a run's report, and of the result, which holds every variant.
 */
@ConfigurationProperties("schedsim.limits")
public record Limits(Long maxCpus, Long maxThreads, Long maxDurationMs, Long maxEvents, Long maxCpuThreadProduct,
              Long maxRepetitions, Long maxVariants, Long maxCgroups, Long maxWorkloads, Long maxTraceSegments,
              Long maxThreadSeconds, Long maxSubmissionEvents, Long maxResultBytes) {
    public Limits {
        maxCgroups = maxCgroups == null ? 1024 : maxCgroups;
        maxWorkloads = maxWorkloads == null ? 1024 : maxWorkloads;
        maxTraceSegments = maxTraceSegments == null ? 100_000 : maxTraceSegments;
        // About 5-30 minutes of one worker: a thread-second of simulated time took 0.2-0.6 ms of CPU in the
        // benchmark cases (mix, epyc64Groups).
        maxThreadSeconds = maxThreadSeconds == null ? 10_000_000L : maxThreadSeconds;
        // About an hour of one worker at the engine's 2-5 M events/s (docs/performance.md).
        maxSubmissionEvents = maxSubmissionEvents == null ? 10_000_000_000L : maxSubmissionEvents;
        // The report and result columns hold 10 MiB (V1, V3); the estimate is within 0.5-1x of real reports.
        maxResultBytes = maxResultBytes == null ? 8_000_000L : maxResultBytes;
        maxCpus = maxCpus == null ? 4096 : maxCpus;
        maxThreads = maxThreads == null ? 100_000 : maxThreads;
        maxDurationMs = maxDurationMs == null ? 600_000 : maxDurationMs;
        maxEvents = maxEvents == null ? 2_000_000_000L : maxEvents;
        maxCpuThreadProduct = maxCpuThreadProduct == null ? 50_000_000L : maxCpuThreadProduct;
        maxRepetitions = maxRepetitions == null ? 20 : maxRepetitions;
        maxVariants = maxVariants == null ? 16 : maxVariants;
    }
}
