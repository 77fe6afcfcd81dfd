package dev.schedsim.request;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/v1/simulations} (docs/api.md, "The request"). Every field is nullable here: absent fields get
 * their defaults in {@code simulations.RequestValidator}, which writes the accepted request back with defaults filled in.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SimulationRequest(
        @Schema(description = "a name of your own, [A-Za-z0-9._-]{1,64} (list filter, report heading)",
                pattern = NAME_PATTERN) String name,
        @Schema(description = "the machine: a preset or saved topology, or an explicit shape (required unless "
                + "kubernetes gives the node)") TopologyRequest topology,
        @Schema(description = "kernel profile, HZ, feature switches (default: the newest profile)")
        KernelRequest kernel,
        @Schema(description = "cgroups with their limits; / and parents of listed paths exist unlimited")
        List<CgroupRequest> cgroups,
        @Schema(description = "what runs: at least one workload (required unless kubernetes gives them)")
        List<WorkloadRequest> workloads,
        @Schema(description = "simulated time in integer milliseconds, e.g. 10000 (at most "
                + "schedsim.limits.max-duration-ms); required unless an rt-app workload's global.duration gives it",
                minimum = "1", example = "2000") Long durationMs,
        @Schema(description = "seed of the first repetition (default 42); repetition i uses seed + i") Long seed,
        @Schema(description = "runs per variant, each with its own seed (default 1)", minimum = "1")
        Integer repetitions,
        @Schema(description = "kernel variants to compare (default: one, the kernel block as given)")
        List<VariantRequest> variants,
        @Schema(description = "record a Perfetto trace of the first repetition (default false)") Boolean trace,
        @Schema(description = "variants generated from a grid of one cgroup's quota, period and burst (instead of "
                + "or after the listed variants)") SweepRequest sweep,
        @Schema(description = "a Kubernetes pod (or a Deployment's pod template) on a node, instead of topology, "
                + "cgroups and workloads: the accepted request shows the cgroups the kubelet and the runtime make")
        KubernetesRequest kubernetes,
        @Schema(description = "accepted requests only: what each import (rt-app, ftrace) became and what it skipped",
                accessMode = Schema.AccessMode.READ_ONLY) List<ImportNote> imports,
        @Schema(description = "runs of the same request on the same machine before the reported one, as a "
                + "benchmark run again and again on a machine that is not rebooted (default: none, the reported run "
                + "is the machine's first)") WarmupRequest warmup) {
    /** A name or label of the caller's (also in the OpenAPI schema). */
    public static final String NAME_PATTERN = "^[A-Za-z0-9._-]{1,64}$";
    public static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile(NAME_PATTERN);
    /** Defaults of the accepted request: the seed, the kernel's CONFIG_HZ and its bandwidth slice. */
    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_HZ = 250;
    public static final long DEFAULT_SLICE_US = 5000;
    /** The workload types that a request expands into {@code phases} and {@code trace} workloads. */
    public static final String RT_APP = "rt-app";
    public static final String FTRACE = "ftrace";


    public SimulationRequest(String name, TopologyRequest topology, KernelRequest kernel, List<CgroupRequest> cgroups,
                             List<WorkloadRequest> workloads, Long durationMs, Long seed, Integer repetitions,
                             List<VariantRequest> variants, Boolean trace, SweepRequest sweep) {
        this(name, topology, kernel, cgroups, workloads, durationMs, seed, repetitions, variants, trace, sweep, null,
                null, null);
    }

    /** The same request with {@code w} as its warm-up (null: none). */
    public SimulationRequest withWarmup(WarmupRequest w) {
        return new SimulationRequest(name, topology, kernel, cgroups, workloads, durationMs, seed, repetitions,
                variants, trace, sweep, kubernetes, imports, w);
    }

    /**
     * Warm-up runs before the reported one (the engine's EngineSpec.Warmup): each runs the whole request — its
     * cgroups made afresh, its threads new — then the machine runs alone for {@code gapMs}. What the kernel keeps
     * between runs carries into the reported run: the sched domains' newidle balance state (NI_RANDOM's
     * newidle_ratio, max_newidle_lb_cost; sd_init() runs only when the domains are rebuilt), the run queues'
     * avg_idle and load averages. Nothing of the warm-up runs is reported.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record WarmupRequest(
            @Schema(description = "warm-up runs before the reported one (default 1, at most "
                    + MAX_WARMUP_RUNS + "; 0: none)", minimum = "0", maximum = "" + MAX_WARMUP_RUNS, example = "1")
            Integer runs,
            @Schema(description = "ms of the machine alone (its noise only) after each warm-up run (default 0, at "
                    + "most " + MAX_WARMUP_GAP_MS + "), e.g. 500 for a harness that sleeps half a second between "
                    + "runs", minimum = "0", maximum = "" + MAX_WARMUP_GAP_MS, example = "500") Long gapMs) {
    }

    /**
     * The most cache lines a request-response message may move ({@link WorkloadRequest#messageLines}): 64 KiB of
     * 64-byte lines, a loopback message of the largest size (TCP_RR over loopback moves 22).
     */
    public static final int MAX_MESSAGE_LINES = 1024;

    /** Bounds of {@link WarmupRequest}: each warm-up run costs as much as the reported one. */
    public static final int MAX_WARMUP_RUNS = 5;
    public static final long MAX_WARMUP_GAP_MS = 60_000;

    /**
     * A pod on a node: the pod's cgroups come from its containers' resources as the kubelet and the runtime set
     * them (dev.schedsim.kubernetes.PodCgroups), and each container runs the workload given for it by name.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record KubernetesRequest(
            @Schema(description = "a Pod manifest, or a Deployment / ReplicaSet / StatefulSet / DaemonSet / Job whose "
                    + "spec.template is used (metadata.name, namespace, uid; containers' and init containers' "
                    + "resources.requests / limits of cpu and memory; spec.overhead)",
                    implementation = java.util.Map.class)
            tools.jackson.databind.JsonNode pod,
            @Schema(description = "the node: a preset, saved topology or explicit shape, as the request's topology")
            TopologyRequest topology,
            @Schema(description = "per container name, the workload it runs (any workload fields but name and "
                    + "cgroup, which the container gives)") Map<String, WorkloadRequest> workloads,
            @Schema(description = "the container runtime, which turns a container's cpu shares into cpu.weight: "
                    + "runc-X.Y.Z or crun-X.Y (default runc-1.3.2); before runc 1.3.2 and crun 1.23 the kubelet's "
                    + "linear formula, since then a quadratic in log2(shares)", example = "runc-1.3.2",
                    pattern = "^(runc|crun)-[0-9]{1,6}\\.[0-9]{1,6}(\\.[0-9]{1,6})?$")
            String runtime,
            @Schema(description = "the kubelet's cpuCFSQuotaPeriod (its CPUCFSQuotaPeriod gate on), a duration "
                    + "1ms..1s such as \"100ms\" (default) or \"10ms\"", example = "100ms",
                    pattern = "^[0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s)$")
            String cpuCFSQuotaPeriod) {
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
    public record TopologyRequest(
            @Schema(description = "a preset (GET /api/v1/topologies/presets) or a saved topology's name; or leave it "
                    + "out and give the shape", example = "validation-2c") String preset,
            @Schema(description = "explicit shape (all five counts required): sockets", minimum = "1") Integer sockets,
            @Schema(description = "explicit shape: NUMA nodes per socket", minimum = "1")
            Integer numaNodesPerSocket,
            @Schema(description = "explicit shape: last-level caches per NUMA node", minimum = "1")
            Integer llcsPerNumaNode,
            @Schema(description = "explicit shape: cores per LLC", minimum = "1") Integer coresPerLlc,
            @Schema(description = "explicit shape: hardware threads per core (SMT width)", minimum = "1")
            Integer threadsPerCore,
            @Schema(description = "explicit shape: cores of each LLC in order, when they differ (one count per LLC; "
                    + "overrides coresPerLlc)") List<Integer> llcCores,
            @Schema(description = "overrides of the hardware model's costs (absent fields keep the defaults)")
            HardwareRequest hardware,
            @Schema(description = "the machine's own activity (interrupts, timer lateness, background threads) drawn "
                    + "from the seed (default true); false: only the workloads draw from it") Boolean machineNoise) {
        public boolean explicit() {
            return sockets != null || numaNodesPerSocket != null || llcsPerNumaNode != null || coresPerLlc != null
                    || threadsPerCore != null || llcCores != null || hardware != null;
        }
    }

    /** Overrides of {@link dev.schedsim.engine.spec.HardwareModel} defaults; absent fields keep them. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record HardwareRequest(
            @Schema(description = "T(k) for k = 1..SMT width: a core's work with k busy threads relative to one "
                    + "thread alone (each thread runs at T(k)/k), e.g. [1.0, 1.25]") List<Double> smtThroughput,
            @Schema(description = "cache refill, ns per KiB of footprint, by distance: same core, same LLC, other "
                    + "LLC, other NUMA node") List<Long> cacheRefillNsPerKb,
            @Schema(description = "exit latency of the shallow idle state, ns") Long shallowIdleExitNs,
            @Schema(description = "exit latency of the deep idle state, ns") Long deepIdleExitNs,
            @Schema(description = "idle time after which a CPU is in the deep state, ns") Long deepIdleResidencyNs,
            @Schema(description = "power of an idle core, W") Double coreIdleWatts,
            @Schema(description = "power of a core whose threads are all in the deep state, W") Double deepIdleWatts,
            @Schema(description = "power of a busy core (one busy thread), W") Double coreBusyWatts,
            @Schema(description = "power of each busy hardware thread beyond a core's first, W") Double smtThreadWatts,
            @Schema(description = "CPU time of a context switch, ns") Long contextSwitchNs,
            @Schema(description = "CPU time of one update_curr(), ns") Long updateCurrNs,
            @Schema(description = "CPU time of a bandwidth hook (account_cfs_rq_runtime() and the like) while "
                    + "the static key is on, ns") Long bandwidthHookNs,
            @Schema(description = "CPU time per CPU an idle-CPU search examines, ns") Long idleScanPerCpuNs,
            @Schema(description = "CPU time per CPU a load balance examines, ns") Long balancePerCpuNs,
            @Schema(description = "CPU time per cfs_rq in update_blocked_averages(), ns") Long blockedAveragesPerCfsRqNs,
            @Schema(description = "a cache line's transfer from the CPU that last wrote it, by distance (same core, "
                    + "same LLC, another LLC of the socket, another socket): one compare-and-swap on "
                    + "sched_balance_running (SD_SERIALIZE), which queues behind every CPU asking for the line, ns")
            List<Long> lineTransferNs,
            @Schema(description = "kernel time a task spends around each sleep and wakeup beyond the context switch "
                    + "(system call, wait queue, wakeup path), ns") Long wakeKernelNs,
            @Schema(description = "what a timed sleep (clock_nanosleep, usleep) costs its task beyond wakeKernelNs: "
                    + "programming the timer (on a virtual machine, exits to the host; only what is left of it when "
                    + "hrtimerReprogramNs is given); its expiry is hrtimerIrqNs, ns")
            Long hrtimerSleepNs,
            @Schema(description = "time a sleep timer's expiry and the wakeup it does take from the task running on "
                    + "that CPU (interrupt time charged to the interrupted task), ns") Long hrtimerIrqNs,
            @Schema(description = "what a timed sleep whose timer becomes its CPU's first to expire pays beyond "
                    + "hrtimerSleepNs: programming the clock-event device (hrtimer_reprogram(); on a virtual machine "
                    + "an exit to the host), ns") Long hrtimerReprogramNs,
            @Schema(description = "CPU time a task woken onto an idle CPU from another CPU (by IPI) pays for that "
                    + "path, ns") Long ipiWakeNs,
            @Schema(description = "time from that IPI's send until the idle CPU starts leaving its idle state, ns")
            Long ipiDeliveryNs,
            @Schema(description = "a load balance that detaches tasks pays for the busiest run queue's locked "
                    + "section: the lock's and the tasks' cache lines (lineTransferNs by distance) and the wait "
                    + "behind other CPUs balancing from the same queue, which makes a rare newidle balance dear "
                    + "(seed 003's max_newidle_lb_cost). Default false: on the 2-vCPU validation machine it moves the "
                    + "periodic cases' migrations out of tolerance (docs/model.md, seed 003)")
            Boolean busiestRqLock) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record KernelRequest(
            @Schema(description = "kernel profile: its scheduler and feature defaults (default the newest); see GET "
                    + "/api/v1/kernel-profiles") String profile,
            Integer hz,
            Map<String, Boolean> features,
            @Schema(description = "sched_cfs_bandwidth_slice_us: runtime a CPU takes from a cgroup's pool at once "
                    + "(default 5000)", minimum = "1") Long bandwidthSliceUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CgroupRequest(
            @Schema(description = "cgroup v2 path, e.g. /kubepods/pod1 (parents are created unlimited; at most 32 "
                    + "levels, 4096 characters)", example = "/a", pattern = "^/", maxLength = 4096) String path,
            @Schema(description = "cpu.max as the kernel takes it: \"QUOTA PERIOD\", \"QUOTA\" (period 100000), "
                    + "\"max PERIOD\" or \"max\" (default), in µs; QUOTA >= 1000, PERIOD 1000..1000000. A "
                    + "Kubernetes limit of 500m is \"50000 100000\"", example = "50000 100000",
                    pattern = "^\\s*(max|[0-9]+)(\\s+[0-9]+)?\\s*$") String cpuMax,
            @Schema(description = "cpu.max.burst, µs (at most the quota; default 0)", minimum = "0") Long cpuMaxBurst,
            @Schema(description = "cpu.weight 1..10000 (default 100; a Kubernetes request of 1 CPU is 39)",
                    minimum = "1", maximum = "10000") Integer cpuWeight) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record WorkloadRequest(
            @Schema(description = "unique in the simulation, printable characters", minLength = 1, maxLength = 128)
            String name,
            @Schema(description = "the cgroup path its threads run in (default /)") String cgroup,
            @Schema(description = "cpu-bound, periodic, request-response, hackbench, schbench, trace, phases or rt-app")
            String type,
            @Schema(description = "cpu-bound, periodic, trace, phases: number of threads", minimum = "1")
            Integer threads,
            @Schema(description = "-20..19 (default 0)", minimum = "-20", maximum = "19") Integer nice,
            @Schema(description = "allowed CPUs as a cpulist, e.g. 0-3,8 (default all)",
                    pattern = "^\\s*[0-9]+\\s*(-\\s*[0-9]+\\s*)?(,\\s*[0-9]+\\s*(-\\s*[0-9]+\\s*)?)*$") String cpus,
            @Schema(description = "cpu-bound: work per thread at full single-thread speed, µs (absent = runs forever)",
                    minimum = "0") Long workUs,
            @Schema(description = "periodic: work per cycle, µs", minimum = "1") Long runUs,
            @Schema(description = "periodic: sleep per cycle, µs (ends 50 µs late: timer slack)", minimum = "0")
            Long sleepUs,
            @Schema(description = "periodic: ± uniform jitter of run and sleep, %", minimum = "0", maximum = "100")
            Integer jitterPct,
            @Schema(description = "request-response: client/server pairs", minimum = "1") Integer pairs,
            @Schema(description = "request-response: server work per request, µs", minimum = "1") Long serviceUs,
            @Schema(description = "request-response: client work between requests, µs", minimum = "0") Long thinkUs,
            @Schema(description = "request-response: cache lines a request or a response moves from the sender's "
                    + "CPU to the receiver's when they run apart; the receiver stalls each line's transfer "
                    + "(hardware lineTransferNs by distance) before it runs. Default 0 (the data costs nothing); "
                    + "22 is TCP_RR over loopback, at most " + MAX_MESSAGE_LINES + " (a 64 KiB message)",
                    minimum = "0", maximum = "" + MAX_MESSAGE_LINES, example = "22") Integer messageLines,
            @Schema(description = "hackbench: groups (-g)", minimum = "1") Integer groups,
            @Schema(description = "hackbench: senders, and as many receivers, per group (-f; hackbench uses 20)",
                    minimum = "1") Integer fdsPerGroup,
            @Schema(description = "hackbench: messages each sender writes to each receiver of its group (-l)",
                    minimum = "1") Integer loops,
            @Schema(description = "hackbench: work per message sent or received, µs", minimum = "1") Long messageUs,
            @Schema(description = "schbench: message threads (-m)", minimum = "1") Integer messageThreads,
            @Schema(description = "schbench: workers per message thread (-t)", minimum = "1")
            Integer workersPerMessageThread,
            @Schema(description = "schbench: a request's CPU time (-c), µs, spun on the wall clock like usec_spin()",
                    minimum = "1") Long requestUs,
            @Schema(description = "schbench: requests per second over all message threads (-R); each message thread "
                    + "hands a request to 2/3 of its workers round-robin per round, ⌈rate / (2/3 · workers)⌉ rounds "
                    + "a second, and the result adds schbench's request latency (requestLatencyUs). 0 = no -R: a "
                    + "message thread wakes all its workers and waits for them", minimum = "0") Integer rps,
            @Schema(description = "trace: each thread's run/sleep list, in order") List<SegmentRequest> segments,
            @Schema(description = "cache footprint per thread, KiB (default by type)", minimum = "0")
            Integer cacheFootprintKb,
            @Schema(description = "phases: each thread's phases, in order (rt-app's thread model)")
            List<PhaseRequest> phases,
            @Schema(description = "phases: times each thread runs the whole phase list, >= 1 (-1, the default: "
                    + "until the end)", minimum = "-1") Integer loop,
            @Schema(description = "phases: each thread's initial delay, µs (default 0)", minimum = "0",
                    maximum = PhaseRules.MAX_US_TEXT) Long delayUs,
            @Schema(description = "phases: every thread exits at its first event after this time, µs (default: "
                    + "none)", minimum = "1", maximum = PhaseRules.MAX_US_TEXT) Long stopUs,
            @Schema(description = "rt-app: an rt-app JSON document (its tasks and global objects); it becomes "
                    + "phases workloads, one per task, and the cgroups of their taskgroups",
                    implementation = java.util.Map.class) tools.jackson.databind.JsonNode rtApp,
            @Schema(description = "ftrace: the text of /sys/kernel/tracing/trace or of trace-cmd report (sched_switch, "
                    + "sched_waking/sched_wakeup, sched_process_exit); each selected thread becomes a trace workload "
                    + "of its runs and sleeps") String ftrace,
            @Schema(description = "ftrace: the threads to import, each a pid or a comm pattern (* and ?; default: "
                    + "every thread but the idle task)") List<String> select,
            @Schema(description = "ftrace: comm (or pid) patterns to cgroup paths, the first match wins (default: the "
                    + "entry's cgroup, or /)") Map<String, String> cgroupMap,
            @Schema(description = "what a run's length measures (cpu-bound with workUs, periodic, trace, phases' run "
                    + "events): \"work\" (default), computation at full speed, whatever the CPU does meanwhile "
                    + "coming on top (interrupts, a slower SMT share); or \"thread-cpu\", the thread's own CPU "
                    + "clock, as a program timing its runs with clock_gettime(CLOCK_THREAD_CPUTIME_ID): the "
                    + "interrupts it takes count toward the run, and each clock read enters the kernel, so its "
                    + "quota runs out and its slice ends to the microsecond", allowableValues = {"work",
                    "thread-cpu"}) String runClock) {
        public WorkloadRequest(String name, String cgroup, String type, Integer threads, Integer nice, String cpus,
                        Long workUs, Long runUs, Long sleepUs, Integer jitterPct, Integer pairs, Long serviceUs,
                        Long thinkUs, Integer groups, Integer fdsPerGroup, Integer loops, Long messageUs,
                        Integer messageThreads, Integer workersPerMessageThread, Long requestUs, Integer rps,
                        List<SegmentRequest> segments, Integer cacheFootprintKb) {
            this(name, cgroup, type, threads, nice, cpus, workUs, runUs, sleepUs, jitterPct, pairs, serviceUs,
                    thinkUs, null, groups, fdsPerGroup, loops, messageUs, messageThreads, workersPerMessageThread,
                    requestUs, rps, segments, cacheFootprintKb, null, null, null, null, null, null, null, null, null);
        }
    }

    /** One phase of a phases workload: its events in order, {@code loop} times (default 1). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PhaseRequest(@Schema(description = "times the phase runs (default 1)", minimum = "1") Integer loop,
                               List<EventRequest> events) {
    }

    /**
     * One event: exactly one of {@code run} (work, µs), {@code runtime} (a wall-clock spin, µs), {@code sleep}
     * (µs) and {@code timer} (rt-app's meanings).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EventRequest(
            @Schema(description = "work, µs", minimum = "0", maximum = PhaseRules.MAX_US_TEXT) Long run,
            @Schema(description = "a wall-clock spin, µs", minimum = "0", maximum = PhaseRules.MAX_US_TEXT)
            Long runtime,
            @Schema(description = "sleep, µs", minimum = "0", maximum = PhaseRules.MAX_US_TEXT) Long sleep,
            TimerRequest timer) {
    }

    /**
     * Sleep until the timer's next expiry, {@code periodUs} after its previous one (the first: the thread's start
     * plus its delay). A {@code ref} starting with "unique" is each thread's own, others are shared by the
     * workload's threads; {@code mode} relative (default: a missed expiry restarts the grid from then) or absolute.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TimerRequest(
            @Schema(description = "the timer's name: \"unique...\" for one per thread, else shared by the "
                    + "workload's threads") String ref,
            @Schema(description = "µs between expiries", minimum = "1", maximum = PhaseRules.MAX_US_TEXT)
            Long periodUs,
            @Schema(description = "relative (default) or absolute", allowableValues = {"relative", "absolute"})
            String mode) {
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
            @ArraySchema(arraySchema = @Schema(description = "periods in µs, each > 0 (default: the cgroup's)"),
                    schema = @Schema(minimum = "1")) List<Long> periodsUs,
            @ArraySchema(arraySchema = @Schema(description = "bursts in µs, each >= 0 (default: the cgroup's)"),
                    schema = @Schema(minimum = "0")) List<Long> burstsUs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "SweepRange")
    public record Range(@Schema(description = "the first value, µs (> 0)", minimum = "1") Long from,
                        @Schema(description = "the last value, µs (included when the steps reach it)", minimum = "1")
                        Long to,
                        @Schema(description = "the step, µs (> 0)", minimum = "1") Long step) {
    }

    /** One trace step: exactly one of {@code runUs} and {@code sleepUs}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SegmentRequest(@Schema(description = "work of this step, µs", minimum = "0") Long runUs,
                                 @Schema(description = "sleep of this step, µs", minimum = "0") Long sleepUs) {
    }

    /**
     * A variant: kernel settings over the request's, and cgroups (by path: cpuMax, cpuMaxBurst, cpuWeight) and
     * workloads (by name: any field) over the request's, so that quotas, periods or bursts compare in one report.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record VariantRequest(
            @Schema(description = "[A-Za-z0-9._-]{1,64}, unique", pattern = NAME_PATTERN)
            String label,
            @Schema(description = "kernel fields that differ from the request's") KernelRequest kernel,
            @Schema(description = "cgroups of the request, by path, with the limits that differ "
                    + "(cpuMax, cpuMaxBurst, cpuWeight)") List<CgroupRequest> cgroups,
            @Schema(description = "workloads of the request, by name, with the fields that differ")
            List<WorkloadRequest> workloads) {
        public VariantRequest(String label, KernelRequest kernel) {
            this(label, kernel, null, null);
        }
    }
}
