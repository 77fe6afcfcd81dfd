package dev.schedsim.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/v1/simulations} (api.md §1). Every field is nullable here: absent fields get
 * their defaults in {@link RequestValidator}, which writes the accepted request back with defaults filled in.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SimulationRequest(
        @Schema(description = "a name of your own, [A-Za-z0-9._-]{1,64} (list filter, report heading)") String name,
        @Schema(description = "the machine: a preset or saved topology, or an explicit shape") TopologyRequest topology,
        @Schema(description = "kernel profile, HZ, feature switches (default: the newest profile)")
        KernelRequest kernel,
        @Schema(description = "cgroups with their limits; / and parents of listed paths exist unlimited")
        List<CgroupRequest> cgroups,
        @Schema(description = "what runs: at least one workload") List<WorkloadRequest> workloads,
        @Schema(description = "simulated time in integer milliseconds, e.g. 10000 (at most "
                + "schedsim.limits.max-duration-ms)", minimum = "1", example = "2000") Long durationMs,
        @Schema(description = "seed of the first repetition (default 42); repetition i uses seed + i") Long seed,
        @Schema(description = "runs per variant, each with its own seed (default 1)", minimum = "1")
        Integer repetitions,
        @Schema(description = "kernel variants to compare (default: one, the kernel block as given)")
        List<VariantRequest> variants,
        @Schema(description = "record a Perfetto trace of the first repetition (default false)") Boolean trace,
        @Schema(description = "variants generated from a grid of one cgroup's quota, period and burst (instead of "
                + "or after the listed variants)") SweepRequest sweep,
        @Schema(description = "accepted requests only: what each import (rt-app, ftrace) became and what it skipped",
                accessMode = Schema.AccessMode.READ_ONLY) List<ImportNote> imports) {

    public SimulationRequest(String name, TopologyRequest topology, KernelRequest kernel, List<CgroupRequest> cgroups,
                             List<WorkloadRequest> workloads, Long durationMs, Long seed, Integer repetitions,
                             List<VariantRequest> variants, Boolean trace, SweepRequest sweep) {
        this(name, topology, kernel, cgroups, workloads, durationMs, seed, repetitions, variants, trace, sweep, null);
    }

    /** What the import of {@code workloads[i]} ({@code source}) became, and what it skipped, with counts. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ImportNote(String source, String type, List<String> workloads, Map<String, Integer> skipped) {
    }

    /**
     * A preset or saved topology by name, or an explicit shape with optional hardware-model overrides;
     * {@code machineNoise: false} (with either) simulates the machine without its own activity (interrupts, timer
     * lateness, background threads), so that a seed changes nothing the workloads do not draw themselves.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TopologyRequest(String preset, Integer sockets, Integer numaNodesPerSocket, Integer llcsPerNumaNode,
                                  Integer coresPerLlc, Integer threadsPerCore, List<Integer> llcCores,
                                  HardwareRequest hardware, Boolean machineNoise) {
        boolean explicit() {
            return sockets != null || numaNodesPerSocket != null || llcsPerNumaNode != null || coresPerLlc != null
                    || threadsPerCore != null || llcCores != null || hardware != null;
        }
    }

    /** Overrides of {@link dev.schedsim.engine.spec.HardwareModel} defaults; absent fields keep them. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record HardwareRequest(List<Double> smtThroughput, List<Long> cacheRefillNsPerKb, Long shallowIdleExitNs,
                                  Long deepIdleExitNs, Long deepIdleResidencyNs, Double coreIdleWatts,
                                  Double deepIdleWatts, Double coreBusyWatts, Double smtThreadWatts,
                                  Long contextSwitchNs, Long updateCurrNs, Long bandwidthHookNs,
                                  Long idleScanPerCpuNs, Long balancePerCpuNs, Long blockedAveragesPerCfsRqNs,
                                  Long casBaseNs, Long casPerContenderNs, Long wakeKernelNs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record KernelRequest(
            @Schema(description = "kernel profile: its scheduler and feature defaults (default the newest); see GET "
                    + "/api/v1/kernel-profiles") String profile,
            Integer hz,
            Map<String, Boolean> features,
            @Schema(description = "sched_cfs_bandwidth_slice_us: runtime a CPU takes from a cgroup's pool at once "
                    + "(default 5000)") Long bandwidthSliceUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CgroupRequest(
            @Schema(description = "cgroup v2 path, e.g. /kubepods/pod1 (parents are created unlimited; at most 32 "
                    + "levels, 4096 characters)", example = "/a") String path,
            @Schema(description = "cpu.max as the kernel takes it: \"QUOTA PERIOD\", \"QUOTA\" (period 100000), "
                    + "\"max PERIOD\" or \"max\" (default), in µs; QUOTA >= 1000, PERIOD 1000..1000000. A "
                    + "Kubernetes limit of 500m is \"50000 100000\"", example = "50000 100000",
                    pattern = "^\\s*(max|[0-9]+)(\\s+[0-9]+)?\\s*$") String cpuMax,
            @Schema(description = "cpu.max.burst, µs (at most the quota; default 0)") Long cpuMaxBurst,
            @Schema(description = "cpu.weight 1..10000 (default 100; a Kubernetes request of 1 CPU is 39)",
                    minimum = "1", maximum = "10000") Integer cpuWeight) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record WorkloadRequest(
            @Schema(description = "unique in the simulation") String name,
            @Schema(description = "the cgroup path its threads run in (default /)") String cgroup,
            @Schema(description = "cpu-bound, periodic, request-response, hackbench, schbench, trace, phases or rt-app")
            String type,
            @Schema(description = "cpu-bound, periodic, trace, phases: number of threads") Integer threads,
            @Schema(description = "-20..19 (default 0)") Integer nice,
            @Schema(description = "allowed CPUs as a cpulist, e.g. 0-3,8 (default all)") String cpus,
            @Schema(description = "cpu-bound: work per thread at full single-thread speed, µs (absent = runs forever)")
            Long workUs,
            @Schema(description = "periodic: work per cycle, µs") Long runUs,
            @Schema(description = "periodic: sleep per cycle, µs (ends 50 µs late: timer slack)") Long sleepUs,
            @Schema(description = "periodic: ± uniform jitter of run and sleep, %") Integer jitterPct,
            @Schema(description = "request-response: client/server pairs") Integer pairs,
            @Schema(description = "request-response: server work per request, µs") Long serviceUs,
            @Schema(description = "request-response: client work between requests, µs") Long thinkUs,
            @Schema(description = "hackbench: groups (-g)") Integer groups,
            @Schema(description = "hackbench: senders, and as many receivers, per group (-f; hackbench uses 20)") Integer fdsPerGroup,
            @Schema(description = "hackbench: messages each sender writes to each receiver of its group (-l)")
            Integer loops,
            @Schema(description = "hackbench: work per message sent or received, µs") Long messageUs,
            @Schema(description = "schbench: message threads (-m)") Integer messageThreads,
            @Schema(description = "schbench: workers per message thread (-t)") Integer workersPerMessageThread,
            @Schema(description = "schbench: a request's CPU time (-c), µs, spun on the wall clock like usec_spin()")
            Long requestUs,
            @Schema(description = "schbench: requests per second over all message threads (-R); each message thread "
                    + "hands a request to 2/3 of its workers round-robin per round, ⌈rate / (2/3 · workers)⌉ rounds "
                    + "a second, and the result adds schbench's request latency (requestLatencyUs). 0 = no -R: a "
                    + "message thread wakes all its workers and waits for them") Integer rps,
            @Schema(description = "trace: each thread's run/sleep list, in order") List<SegmentRequest> segments,
            @Schema(description = "cache footprint per thread, KiB (default by type)") Integer cacheFootprintKb,
            @Schema(description = "phases: each thread's phases, in order (rt-app's thread model)")
            List<PhaseRequest> phases,
            @Schema(description = "phases: times each thread runs the whole phase list (-1, the default: until the "
                    + "end)") Integer loop,
            @Schema(description = "phases: each thread's initial delay, µs (default 0)") Long delayUs,
            @Schema(description = "phases: every thread exits at its first event after this time, µs (default: "
                    + "none)") Long stopUs,
            @Schema(description = "rt-app: an rt-app JSON document (its tasks and global objects); it becomes "
                    + "phases workloads, one per task, and the cgroups of their taskgroups",
                    implementation = Object.class) tools.jackson.databind.JsonNode rtApp,
            @Schema(description = "ftrace: the text of /sys/kernel/tracing/trace or of trace-cmd report (sched_switch, "
                    + "sched_waking/sched_wakeup, sched_process_exit); each selected thread becomes a trace workload "
                    + "of its runs and sleeps") String ftrace,
            @Schema(description = "ftrace: the threads to import, each a pid or a comm pattern (* and ?; default: "
                    + "every thread but the idle task)") List<String> select,
            @Schema(description = "ftrace: comm (or pid) patterns to cgroup paths, the first match wins (default: the "
                    + "entry's cgroup, or /)") Map<String, String> cgroupMap) {
        WorkloadRequest(String name, String cgroup, String type, Integer threads, Integer nice, String cpus,
                        Long workUs, Long runUs, Long sleepUs, Integer jitterPct, Integer pairs, Long serviceUs,
                        Long thinkUs, Integer groups, Integer fdsPerGroup, Integer loops, Long messageUs,
                        Integer messageThreads, Integer workersPerMessageThread, Long requestUs, Integer rps,
                        List<SegmentRequest> segments, Integer cacheFootprintKb) {
            this(name, cgroup, type, threads, nice, cpus, workUs, runUs, sleepUs, jitterPct, pairs, serviceUs,
                    thinkUs, groups, fdsPerGroup, loops, messageUs, messageThreads, workersPerMessageThread, requestUs,
                    rps, segments, cacheFootprintKb, null, null, null, null, null, null, null, null);
        }
    }

    /** One phase of a phases workload: its events in order, {@code loop} times (default 1). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PhaseRequest(Integer loop, List<EventRequest> events) {
    }

    /**
     * One event: exactly one of {@code run} (work, µs), {@code runtime} (a wall-clock spin, µs), {@code sleep}
     * (µs) and {@code timer} (rt-app's meanings).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EventRequest(Long run, Long runtime, Long sleep, TimerRequest timer) {
    }

    /**
     * Sleep until the timer's next expiry, {@code periodUs} after its previous one (the first: the thread's start
     * plus its delay). A {@code ref} starting with "unique" is each thread's own, others are shared by the
     * workload's threads; {@code mode} relative (default: a missed expiry restarts the grid from then) or absolute.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TimerRequest(String ref, Long periodUs, String mode) {
    }

    /**
     * A grid of one cgroup's bandwidth settings: every quota from {@code quotaUs.from} to {@code quotaUs.to} by
     * {@code quotaUs.step}, times every period of {@code periodsUs} (default the cgroup's), times every burst of
     * {@code burstsUs} (default the cgroup's); each setting a variant labelled by its values, e.g.
     * {@code q50000-p100000-b0}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SweepRequest(
            @Schema(description = "the cgroup whose limits the grid sets, one of the request's", example = "/a")
            String cgroup,
            @Schema(description = "quotas in µs: from, to (inclusive), step") Range quotaUs,
            @Schema(description = "periods in µs (default: the cgroup's)") List<Long> periodsUs,
            @Schema(description = "bursts in µs (default: the cgroup's)") List<Long> burstsUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Range(Long from, Long to, Long step) {
    }

    /** One trace step: exactly one of {@code runUs} and {@code sleepUs}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SegmentRequest(Long runUs, Long sleepUs) {
    }

    /**
     * A variant: kernel settings over the request's, and cgroups (by path: cpuMax, cpuMaxBurst, cpuWeight) and
     * workloads (by name: any field) over the request's, so that quotas, periods or bursts compare in one report.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record VariantRequest(
            @Schema(description = "[A-Za-z0-9._-]{1,64}, unique") String label,
            @Schema(description = "kernel fields that differ from the request's") KernelRequest kernel,
            @Schema(description = "cgroups of the request, by path, with the limits that differ "
                    + "(cpuMax, cpuMaxBurst, cpuWeight)") List<CgroupRequest> cgroups,
            @Schema(description = "workloads of the request, by name, with the fields that differ")
            List<WorkloadRequest> workloads) {
        VariantRequest(String label, KernelRequest kernel) {
            this(label, kernel, null, null);
        }
    }
}
