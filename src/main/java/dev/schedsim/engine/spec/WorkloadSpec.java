package dev.schedsim.engine.spec;

import java.util.List;

/**
 * One workload of a simulation (docs/api.md, "workloads"): what every workload has (name, cgroup, nice, affinity, cache
 * footprint) and its {@link Kind}, the type's own parameters. Adding a workload type means a {@link Kind} record
 * here and its program in {@code engine.workload} (docs/model.md, "Walkthrough 2: add a workload type").
 *
 * @param name             unique in the simulation
 * @param cgroup           the cgroup path its threads run in
 * @param nice             -20..19
 * @param cpus             allowed CPUs (affinity), ascending; null = all
 * @param cacheFootprintKb the cache footprint of each thread (0 = the type's default)
 * @param kind             the type and its parameters
 * @param runClock         what its run lengths measure: work (the default) or the thread's own CPU clock
 */
public record WorkloadSpec(String name, String cgroup, int nice, int[] cpus, int cacheFootprintKb, Kind kind,
                           RunClock runClock) {

    /** A workload whose runs are work. */
    public WorkloadSpec(String name, String cgroup, int nice, int[] cpus, int cacheFootprintKb, Kind kind) {
        this(name, cgroup, nice, cpus, cacheFootprintKb, kind, RunClock.WORK);
    }

    /** A workload type's parameters. */
    public sealed interface Kind permits CpuBound, Periodic, RequestResponse, Hackbench, Schbench, Trace,
            Phases {
        WorkloadType type();

        /** The number of threads the workload creates. */
        int threadCount();

        /** The cache footprint of a thread when the spec gives none (KiB; an assumption per type). */
        default int defaultFootprintKb() {
            return 256;
        }
    }

    /**
     * @param threads threads
     * @param workUs  work per thread at full single-thread speed (0 = runs forever)
     */
    public record CpuBound(int threads, long workUs) implements Kind {
        @Override
        public WorkloadType type() {
            return WorkloadType.CPU_BOUND;
        }

        @Override
        public int threadCount() {
            return threads;
        }

        @Override
        public int defaultFootprintKb() {
            return 512;
        }
    }

    /**
     * @param threads   threads
     * @param runUs     work per cycle
     * @param sleepUs   sleep per cycle
     * @param jitterPct ± uniform jitter of run and sleep, in percent
     */
    public record Periodic(int threads, long runUs, long sleepUs, int jitterPct) implements Kind {
        @Override
        public WorkloadType type() {
            return WorkloadType.PERIODIC;
        }

        @Override
        public int threadCount() {
            return threads;
        }
    }

    /**
     * netperf TCP_RR style client/server pairs.
     *
     * @param pairs     client/server pairs
     * @param serviceUs server work per request
     * @param thinkUs   client work between requests
     * @param serverCpus the servers' affinity apart from their clients' (null: the workload's), as latbench's
     *                   {@code peer=} pins them: every wakeup then crosses between the CPUs (engine only)
     * @param messageLines the cache lines a request or a response moves from the sender's CPU to the receiver's
     *                   when they run apart (the socket's and the skb's, {@link #TCP_RR_LOOPBACK_LINES}); the
     *                   receiver pays each line's transfer by distance (HardwareModel.lineTransferNs) before it
     *                   runs. 0 (the default): the data costs nothing, as the validation guest's calibrated
     *                   wakeup costs already hold it (engine only)
     */
    public record RequestResponse(int pairs, long serviceUs, long thinkUs, int[] serverCpus, int messageLines)
            implements Kind {
        /** Pairs whose servers run wherever the workload's affinity lets them, with their clients. */
        public RequestResponse(int pairs, long serviceUs, long thinkUs) {
            this(pairs, serviceUs, thinkUs, null, 0);
        }

        /** Pairs whose messages cost nothing to move between CPUs. */
        public RequestResponse(int pairs, long serviceUs, long thinkUs, int[] serverCpus) {
            this(pairs, serviceUs, thinkUs, serverCpus, 0);
        }

        public RequestResponse {
            if (messageLines < 0) {
                throw new IllegalArgumentException("messageLines must be >= 0");
            }
        }

        /**
         * The cache lines one TCP_RR message over loopback moves between the sender's and the receiver's CPUs when
         * they differ, counted from the kernel's structures at the posting's base (v6.7, x86-64; docs/model.md,
         * "Seed 002's client/server rows"): the delivered sk_buff (232 bytes, 4 lines), its head with the
         * Ethernet, IP and TCP headers and netperf's 1-byte payload (2), skb_shared_info's first line (dataref,
         * nr_frags: 1), written by the sender and read and freed by tcp_recvmsg(); the receiving socket's lines
         * its softirq writes on the sender's CPU in tcp_rcv_established() — struct sock's receive queue and
         * memory accounting (2), the socket_wq that sock_def_readable() wakes (1), tcp_sock's receive and
         * shared send/receive fields (rcv_nxt, rcv_wup, rcvq_space, rcv_rtt_est; snd_una, packets_out: 4) and
         * icsk_ack (1); the receiver's previous sent skb, acked by this message and freed on the sender's CPU by
         * tcp_clean_rtx_queue() (4); and the wakeup's own: the wakee's try_to_wake_up() fields, the target rq's
         * wake_list and the idle task's thread flags that set_nr_if_polling() writes (3).
         */
        public static final int TCP_RR_LOOPBACK_LINES = 22;

        @Override
        public WorkloadType type() {
            return WorkloadType.REQUEST_RESPONSE;
        }

        @Override
        public int threadCount() {
            return 2 * pairs;
        }

        @Override
        public int defaultFootprintKb() {
            return 64;
        }
    }

    /**
     * @param groups      groups
     * @param fdsPerGroup senders (and receivers) per group
     * @param loops       messages per sender to each receiver
     * @param messageUs   work per message (send and receive each)
     * @param bufferMessages messages a receiver's buffer holds before a sender's write() sleeps: the socket or
     *                    pipe capacity over the message size (latbench's 64 KiB pipes of one-byte messages hold
     *                    65 536; {@link #HACKBENCH_BUFFER_MESSAGES} by default)
     */
    public record Hackbench(int groups, int fdsPerGroup, int loops, long messageUs, int bufferMessages)
            implements Kind {
        public Hackbench(int groups, int fdsPerGroup, int loops, long messageUs) {
            this(groups, fdsPerGroup, loops, messageUs, HACKBENCH_BUFFER_MESSAGES);
        }

        @Override
        public WorkloadType type() {
            return WorkloadType.HACKBENCH;
        }

        @Override
        public int threadCount() {
            return 2 * groups * fdsPerGroup;
        }

        @Override
        public int defaultFootprintKb() {
            return 64;
        }
    }

    /**
     * @param messageThreads          message threads
     * @param workersPerMessageThread workers per message thread
     * @param requestUs               CPU time per request (-c), spun on the wall clock like usec_spin()
     * @param rps                     requests per second over all message threads (-R; 0 = without -R: each
     *                                message thread wakes all its workers and waits for them)
     */
    public record Schbench(int messageThreads, int workersPerMessageThread, long requestUs, int rps)
            implements Kind {
        @Override
        public WorkloadType type() {
            return WorkloadType.SCHBENCH;
        }

        @Override
        public int threadCount() {
            return messageThreads * (1 + workersPerMessageThread);
        }

        @Override
        public int defaultFootprintKb() {
            return 128;
        }
    }

    /**
     * @param threads  threads, each running the whole list
     * @param segments the per-thread run/sleep list
     */
    public record Trace(int threads, List<Segment> segments) implements Kind {
        public Trace {
            segments = segments == null ? List.of() : List.copyOf(segments);
        }

        @Override
        public WorkloadType type() {
            return WorkloadType.TRACE;
        }

        @Override
        public int threadCount() {
            return threads;
        }
    }

    /**
     * Phases (rt-app's thread model): after {@code delayUs}, each thread runs its phases in order, each phase
     * {@code loop} times its events, the whole list {@code loop} times (-1: until the run ends); every thread
     * exits at its first event after {@code stopUs} (0: none; rt-app's global.duration).
     *
     * @param timers the timers its events use: each per thread, or shared by the workload's threads
     */
    public record Phases(int threads, List<Phase> phases, int loop, long delayUs, long stopUs, List<Timer> timers)
            implements Kind {
        public Phases {
            phases = List.copyOf(phases);
            timers = List.copyOf(timers);
        }

        @Override
        public WorkloadType type() {
            return WorkloadType.PHASES;
        }

        @Override
        public int threadCount() {
            return threads;
        }
    }

    /** One phase: its events, {@code loop} times in a row. */
    public record Phase(int loop, List<Event> events) {
        public Phase {
            events = List.copyOf(events);
        }
    }

    /** What a phase event does (rt-app's run, runtime, sleep and timer events). */
    public enum EventKind {
        /** work at full single-thread speed (rt-app run: a fixed amount of work) */
        RUN,
        /** a wall-clock spin, however long the thread waits meanwhile (rt-app runtime) */
        RUNTIME,
        /** a relative sleep (rt-app sleep) */
        SLEEP,
        /** sleep until the timer's next expiry, {@code us} after its previous one (rt-app timer) */
        TIMER
    }

    /** One event: its kind, its length (µs; a timer's period), and for a timer its index in the kind's timers. */
    public record Event(EventKind kind, long us, int timer) {
        public Event {
            if (us < 0) {
                throw new IllegalArgumentException("event length must be >= 0");
            }
        }
    }

    /**
     * A timer: {@code perThread} (rt-app's "unique" refs) or shared by the workload's threads; {@code absolute}:
     * a missed expiry keeps the period's grid, else (relative) the next period starts from now.
     */
    public record Timer(boolean perThread, boolean absolute) {
    }

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
        if (kind == null) {
            throw new IllegalArgumentException("workload " + name + " needs a kind");
        }
        cpus = cpus == null ? null : cpus.clone();
        if (runClock == null) {
            runClock = RunClock.WORK;
        }
    }

    @Override
    public int[] cpus() {
        return cpus == null ? null : cpus.clone();
    }

    public WorkloadType type() {
        return kind.type();
    }

    /** The cache footprint of each thread (KiB): the spec's, or the type's default. */
    public int footprintKb() {
        return cacheFootprintKb > 0 ? cacheFootprintKb : kind.defaultFootprintKb();
    }

    /** The number of threads this workload creates. */
    public int threadCount() {
        return kind.threadCount();
    }

    /** The same workload with another nice value. */
    public WorkloadSpec withNice(int n) {
        return new WorkloadSpec(name, cgroup, n, cpus, cacheFootprintKb, kind, runClock);
    }

    /** The same workload with an affinity (null = every CPU). */
    public WorkloadSpec withCpus(int[] allowed) {
        return new WorkloadSpec(name, cgroup, nice, allowed, cacheFootprintKb, kind, runClock);
    }

    /** The same workload with another cache footprint per thread (KiB; 0 = the type's default). */
    public WorkloadSpec withFootprintKb(int kb) {
        return new WorkloadSpec(name, cgroup, nice, cpus, kb, kind, runClock);
    }

    /** The same workload with runs measured on another clock. */
    public WorkloadSpec withRunClock(RunClock clock) {
        return new WorkloadSpec(name, cgroup, nice, cpus, cacheFootprintKb, kind, clock);
    }

    /** A workload of nice 0 on every CPU with the type's default footprint. */
    public static WorkloadSpec of(String name, String cgroup, Kind kind) {
        return new WorkloadSpec(name, cgroup, 0, null, 0, kind);
    }

    /** A cpu-bound workload. */
    public static WorkloadSpec cpuBound(String name, String cgroup, int threads, long workUs) {
        return of(name, cgroup, new CpuBound(threads, workUs));
    }

    /** A periodic workload. */
    public static WorkloadSpec periodic(String name, String cgroup, int threads, long runUs, long sleepUs) {
        return periodic(name, cgroup, threads, runUs, sleepUs, 0);
    }

    /** A periodic workload with ± jitter on run and sleep. */
    public static WorkloadSpec periodic(String name, String cgroup, int threads, long runUs, long sleepUs,
                                        int jitterPct) {
        return of(name, cgroup, new Periodic(threads, runUs, sleepUs, jitterPct));
    }

    /** A request-response workload. */
    public static WorkloadSpec requestResponse(String name, String cgroup, int pairs, long serviceUs,
                                               long thinkUs) {
        return of(name, cgroup, new RequestResponse(pairs, serviceUs, thinkUs));
    }

    /**
     * The default receiver buffer of a hackbench workload, in messages: hackbench's 100-byte writes on a Unix stream
     * socket whose sk_sndbuf is net.core.wmem_default, SK_WMEM_MAX = 256 × SKB_TRUESIZE(256) = 212 992 bytes
     * (include/net/sock.h, net/core/sock.c), each write an skb of truesize 768 (its 100 bytes and skb_shared_info
     * in a 512-byte kmalloc, and the 256-byte sk_buff): sock_alloc_send_pskb() lets a write through while
     * sk_wmem_alloc is below sk_sndbuf, so 278 messages are in flight before a sender sleeps — measured on this
     * project's 6.18 machine, with the wakeup of a blocked writer at 69 left (scripts/socket-buffer-check.sh).
     */
    public static final int HACKBENCH_BUFFER_MESSAGES = 278;

    /** A hackbench workload. */
    public static WorkloadSpec hackbench(String name, String cgroup, int groups, int fdsPerGroup, int loops,
                                         long messageUs) {
        return of(name, cgroup, new Hackbench(groups, fdsPerGroup, loops, messageUs));
    }

    /** A schbench workload. */
    public static WorkloadSpec schbench(String name, String cgroup, int messageThreads, int workersPerMessageThread,
                                        long requestUs, int rps) {
        return of(name, cgroup, new Schbench(messageThreads, workersPerMessageThread, requestUs, rps));
    }

    /** A phases workload. */
    public static WorkloadSpec phases(String name, String cgroup, Phases kind) {
        return of(name, cgroup, kind);
    }

    /** A trace workload. */
    public static WorkloadSpec trace(String name, String cgroup, int threads, List<Segment> segments) {
        return of(name, cgroup, new Trace(threads, segments));
    }
}
