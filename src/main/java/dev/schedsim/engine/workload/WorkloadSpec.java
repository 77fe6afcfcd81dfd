package dev.schedsim.engine.workload;

import java.util.List;

/**
 * One workload of a simulation (api.md §1). Fields that a type does not use are zero.
 *
 * @param name             unique in the simulation
 * @param cgroup           the cgroup path its threads run in
 * @param type             the kind
 * @param threads          threads of cpu-bound, periodic and trace workloads
 * @param nice             -20..19
 * @param cpus             allowed CPUs (affinity), ascending; null = all
 * @param workUs           cpu-bound: work per thread at full single-thread speed (0 = runs forever)
 * @param runUs            periodic: work per cycle
 * @param sleepUs          periodic: sleep per cycle
 * @param jitterPct        periodic: ± uniform jitter of run and sleep, in percent
 * @param pairs            request-response: client/server pairs
 * @param serviceUs        request-response: server work per request
 * @param thinkUs          request-response: client work between requests
 * @param groups           hackbench groups
 * @param fdsPerGroup      hackbench senders (and receivers) per group
 * @param loops            hackbench messages per sender to each receiver
 * @param messageUs        hackbench work per message (send and receive each)
 * @param messageThreads   schbench message threads
 * @param workersPerMessageThread schbench workers per message thread
 * @param requestUs        schbench CPU time per request (-c), spun on the wall clock like usec_spin()
 * @param rps              schbench requests per second over all message threads (-R; 0 = without -R: each
 *                         message thread wakes all its workers and waits for them)
 * @param segments         trace: the per-thread run/sleep list
 * @param cacheFootprintKb the cache footprint of each thread (0 = the type's default)
 */
public record WorkloadSpec(String name, String cgroup, WorkloadType type, int threads, int nice, int[] cpus,
                           long workUs, long runUs, long sleepUs, int jitterPct, int pairs, long serviceUs,
                           long thinkUs, int groups, int fdsPerGroup, int loops, long messageUs,
                           int messageThreads, int workersPerMessageThread, long requestUs, int rps,
                           List<Segment> segments, int cacheFootprintKb) {

    /** One step of a trace: run (work) or sleep, in µs. */
    public record Segment(boolean run, long us) {
        public Segment {
            if (us < 0) {
                throw new IllegalArgumentException("segment length must be >= 0");
            }
        }
    }

    public WorkloadSpec {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("workload name required");
        }
        if (nice < -20 || nice > 19) {
            throw new IllegalArgumentException("nice must be in -20..19");
        }
        cpus = cpus == null ? null : cpus.clone();
        segments = segments == null ? List.of() : List.copyOf(segments);
    }

    @Override
    public int[] cpus() {
        return cpus == null ? null : cpus.clone();
    }

    /** Default cache footprint by type when none is given (KiB). */
    public int footprintKb() {
        if (cacheFootprintKb > 0) {
            return cacheFootprintKb;
        }
        switch (type) {
            case CPU_BOUND:
                return 512;
            case REQUEST_RESPONSE:
            case HACKBENCH:
                return 64;
            case SCHBENCH:
                return 128;
            default:
                return 256;
        }
    }

    /** The number of threads this workload creates. */
    public int threadCount() {
        switch (type) {
            case REQUEST_RESPONSE:
                return 2 * pairs;
            case HACKBENCH:
                return 2 * groups * fdsPerGroup;
            case SCHBENCH:
                return messageThreads * (1 + workersPerMessageThread);
            default:
                return threads;
        }
    }

    /** A builder-style copy helper for tests: a cpu-bound workload. */
    public static WorkloadSpec cpuBound(String name, String cgroup, int threads, long workUs) {
        return new WorkloadSpec(name, cgroup, WorkloadType.CPU_BOUND, threads, 0, null, workUs, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, null, 0);
    }

    /** A periodic workload. */
    public static WorkloadSpec periodic(String name, String cgroup, int threads, long runUs, long sleepUs) {
        return periodic(name, cgroup, threads, runUs, sleepUs, 0);
    }

    /** A periodic workload with ± jitter on run and sleep. */
    public static WorkloadSpec periodic(String name, String cgroup, int threads, long runUs, long sleepUs,
                                        int jitterPct) {
        return new WorkloadSpec(name, cgroup, WorkloadType.PERIODIC, threads, 0, null, 0, runUs, sleepUs,
                jitterPct, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0);
    }

    /** A request-response workload. */
    public static WorkloadSpec requestResponse(String name, String cgroup, int pairs, long serviceUs,
                                               long thinkUs) {
        return new WorkloadSpec(name, cgroup, WorkloadType.REQUEST_RESPONSE, 0, 0, null, 0, 0, 0, 0, pairs,
                serviceUs, thinkUs, 0, 0, 0, 0, 0, 0, 0, 0, null, 0);
    }
}
