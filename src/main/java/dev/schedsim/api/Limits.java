package dev.schedsim.api;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code schedsim.limits.*}: what one simulation may ask for. Beyond them a request gets 422 naming the limit.
 * {@code maxEvents} is the event budget of every engine run; a run that needs more fails with
 * {@code budget-exceeded}.
 */
@ConfigurationProperties("schedsim.limits")
record Limits(Long maxCpus, Long maxThreads, Long maxDurationMs, Long maxEvents, Long maxCpuThreadProduct,
              Long maxRepetitions, Long maxVariants) {
    Limits {
        maxCpus = maxCpus == null ? 4096 : maxCpus;
        maxThreads = maxThreads == null ? 100_000 : maxThreads;
        maxDurationMs = maxDurationMs == null ? 600_000 : maxDurationMs;
        maxEvents = maxEvents == null ? 2_000_000_000L : maxEvents;
        maxCpuThreadProduct = maxCpuThreadProduct == null ? 50_000_000L : maxCpuThreadProduct;
        maxRepetitions = maxRepetitions == null ? 20 : maxRepetitions;
        maxVariants = maxVariants == null ? 16 : maxVariants;
    }
}
