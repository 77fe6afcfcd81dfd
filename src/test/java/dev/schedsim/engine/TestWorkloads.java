package dev.schedsim.engine;

import dev.schedsim.engine.workload.WorkloadSpec;
import dev.schedsim.engine.workload.WorkloadType;
import java.util.List;

/** Workload specs the static helpers of {@link WorkloadSpec} do not build (nice, affinity, other types). */
final class TestWorkloads {
    private TestWorkloads() {
    }

    /** cpu-bound threads with a nice value and an affinity (null = all CPUs). */
    static WorkloadSpec cpuBound(String name, String cgroup, int threads, int nice, int[] cpus, long workUs) {
        return new WorkloadSpec(name, cgroup, WorkloadType.CPU_BOUND, threads, nice, cpus, workUs, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0);
    }

    static WorkloadSpec periodic(String name, String cgroup, int threads, long runUs, long sleepUs, int jitterPct,
                                 int[] cpus) {
        return new WorkloadSpec(name, cgroup, WorkloadType.PERIODIC, threads, 0, cpus, 0, runUs, sleepUs, jitterPct,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0);
    }

    static WorkloadSpec requestResponse(String name, String cgroup, int pairs, long serviceUs, long thinkUs,
                                        int[] cpus) {
        return new WorkloadSpec(name, cgroup, WorkloadType.REQUEST_RESPONSE, 0, 0, cpus, 0, 0, 0, 0, pairs,
                serviceUs, thinkUs, 0, 0, 0, 0, 0, 0, 0, 0, null, 0);
    }

    static WorkloadSpec trace(String name, String cgroup, int threads, List<WorkloadSpec.Segment> segments) {
        return new WorkloadSpec(name, cgroup, WorkloadType.TRACE, threads, 0, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, segments, 0);
    }

    static WorkloadSpec hackbench(String name, String cgroup, int groups, int fdsPerGroup, int loops,
                                  long messageUs) {
        return new WorkloadSpec(name, cgroup, WorkloadType.HACKBENCH, 0, 0, null, 0, 0, 0, 0, 0, 0, 0, groups,
                fdsPerGroup, loops, messageUs, 0, 0, 0, 0, null, 0);
    }

    static WorkloadSpec schbench(String name, String cgroup, int messageThreads, int workersPerMessageThread,
                                 long requestUs, int rps) {
        return new WorkloadSpec(name, cgroup, WorkloadType.SCHBENCH, 0, 0, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                messageThreads, workersPerMessageThread, requestUs, rps, null, 0);
    }
}
