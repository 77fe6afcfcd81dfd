package dev.schedsim.request;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code schedsim.limits.*}: what one simulation may ask for. Beyond them a request gets 422 naming the limit.
 * {@code maxEvents} is the event budget of every engine run; a run that needs more fails with
 * {@code budget-exceeded}. {@code maxThreadSeconds} bounds a submission's work: runs (variants x repetitions) x
 * simulated seconds x threads; {@code maxCgroups}, {@code maxWorkloads} and {@code maxTraceSegments} (over all
 * trace workloads) bound its size.
 */
@ConfigurationProperties("schedsim.limits")
public record Limits(Long maxCpus, Long maxThreads, Long maxDurationMs, Long maxEvents, Long maxCpuThreadProduct,
              Long maxRepetitions, Long maxVariants, Long maxCgroups, Long maxWorkloads, Long maxTraceSegments,
              Long maxThreadSeconds) {
    public Limits {
        maxCgroups = maxCgroups == null ? 1024 : maxCgroups;
        maxWorkloads = maxWorkloads == null ? 1024 : maxWorkloads;
        maxTraceSegments = maxTraceSegments == null ? 100_000 : maxTraceSegments;
        // About 5-30 minutes of one worker: a thread-second of simulated time took 0.2-0.6 ms of CPU in the
        // benchmark cases (mix, epyc64Groups).
        maxThreadSeconds = maxThreadSeconds == null ? 10_000_000L : maxThreadSeconds;
        maxCpus = maxCpus == null ? 4096 : maxCpus;
        maxThreads = maxThreads == null ? 100_000 : maxThreads;
        maxDurationMs = maxDurationMs == null ? 600_000 : maxDurationMs;
        maxEvents = maxEvents == null ? 2_000_000_000L : maxEvents;
        maxCpuThreadProduct = maxCpuThreadProduct == null ? 50_000_000L : maxCpuThreadProduct;
        maxRepetitions = maxRepetitions == null ? 20 : maxRepetitions;
        maxVariants = maxVariants == null ? 16 : maxVariants;
    }
}
