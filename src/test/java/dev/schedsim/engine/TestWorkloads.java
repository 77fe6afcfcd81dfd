package dev.schedsim.engine;

import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;

/** Workload specs the static helpers of {@link WorkloadSpec} do not build in one call (nice, affinity). */
final class TestWorkloads {
    private TestWorkloads() {
    }

    /** cpu-bound threads with a nice value and an affinity (null = all CPUs). */
    static WorkloadSpec cpuBound(String name, String cgroup, int threads, int nice, int[] cpus, long workUs) {
        return WorkloadSpec.cpuBound(name, cgroup, threads, workUs).withNice(nice).withCpus(cpus);
    }

    static WorkloadSpec periodic(String name, String cgroup, int threads, long runUs, long sleepUs, int jitterPct,
                                 int[] cpus) {
        return WorkloadSpec.periodic(name, cgroup, threads, runUs, sleepUs, jitterPct).withCpus(cpus);
    }

    static WorkloadSpec requestResponse(String name, String cgroup, int pairs, long serviceUs, long thinkUs,
                                        int[] cpus) {
        return WorkloadSpec.requestResponse(name, cgroup, pairs, serviceUs, thinkUs).withCpus(cpus);
    }

    static WorkloadSpec trace(String name, String cgroup, int threads, List<WorkloadSpec.Segment> segments) {
        return WorkloadSpec.trace(name, cgroup, threads, segments);
    }

    static WorkloadSpec hackbench(String name, String cgroup, int groups, int fdsPerGroup, int loops,
                                  long messageUs) {
        return WorkloadSpec.hackbench(name, cgroup, groups, fdsPerGroup, loops, messageUs);
    }

    static WorkloadSpec schbench(String name, String cgroup, int messageThreads, int workersPerMessageThread,
                                 long requestUs, int rps) {
        return WorkloadSpec.schbench(name, cgroup, messageThreads, workersPerMessageThread, requestUs, rps);
    }
}
