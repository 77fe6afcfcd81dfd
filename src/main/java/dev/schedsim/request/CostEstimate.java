package dev.schedsim.request;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.WorkloadSpec;

/**
 * What a run will cost, known before it runs: its engine events and the size of its stored report. Simulated
 * time alone (schedsim.limits.max-thread-seconds) says nothing of the work in it: 600 s of a thread that runs and
 * sleeps 1 µs is some 20 million cycles, 600 s of a CPU-bound one a few thousand ticks. The events follow the
 * workloads' cycle rates (a wakeup, a switch in and one out, a timer per cycle), the CPUs' ticks and the limited
 * groups' period timers, times the simulated time; the report grows with the groups (their paths are written in
 * it several times), the workloads and the CPUs.
 *
 * <p>An estimate, not a bound: {@code CostEstimateTests} holds it against the events and bytes of real runs;
 * docs/api.md ("Limits") has the limits it is held to. A worker still stops a run that goes far beyond it
 * ({@link #budget}).
 */
public final class CostEstimate {
    /**
     * Engine events per workload cycle (a wakeup and a timer or a message; switches are not events of their own):
     * real runs of CostEstimateTests process 0.1-0.5 times the estimate where they are large.
     */
    static final double EVENTS_PER_CYCLE = 2;
    /** A sleep ends this late (timer slack): a periodic cycle is at least this long. */
    static final long SLACK_US = 50;
    /** Bytes of a stored run report per group, beyond its path (its counters, latencies and series). */
    static final long REPORT_BYTES_PER_GROUP = 3_000;
    /** Times a group's path is written in a stored run report and in a result (its entries, its parent's). */
    static final long PATH_COPIES = 8;
    static final long REPORT_BYTES_PER_WORKLOAD = 3_500;
    static final long REPORT_BYTES_PER_CPU = 300;
    static final long REPORT_BYTES_BASE = 4_000;
    /** How far beyond its estimate a run may go before a worker stops it (and never below the floor). */
    public static final long BUDGET_FACTOR = 20;
    public static final long BUDGET_FLOOR = 50_000_000L;

    private CostEstimate() {
    }

    /** The events one run of {@code spec} is expected to process. */
    public static double events(EngineSpec spec) {
        double seconds = spec.durationUs() / 1e6;
        int cpus = spec.topology().cpuCount();
        long threads = 0;
        for (WorkloadSpec w : spec.workloads()) {
            threads += w.kind().threadCount();
        }
        // An idle CPU does not tick (NOHZ): the ticks of the CPUs the threads can keep busy.
        double perSecond = (double) spec.kernel().hz() * Math.min(cpus, Math.max(1, threads));
        for (CgroupSpec c : spec.cgroups()) {
            if (c.limited()) {
                // the period timer, and a throttle and an unthrottle on each CPU the group runs on
                perSecond += 1e6 / c.periodUs() * (1 + 2.0 * Math.min(cpus, 64));
            }
        }
        double fixed = 0;
        for (WorkloadSpec w : spec.workloads()) {
            WorkloadSpec.Kind k = w.kind();
            if (k instanceof WorkloadSpec.Periodic p) {
                // (no sleep, no timer and no slack: a cycle of runUs alone)
                perSecond += p.threads() * cycles(p.runUs() + p.sleepUs() + (p.sleepUs() > 0 ? SLACK_US : 0))
                        * EVENTS_PER_CYCLE;
            } else if (k instanceof WorkloadSpec.RequestResponse r) {
                // (a pair's cycle: the client wakes the server, the server the client)
                perSecond += (double) r.pairs() * cycles(r.serviceUs() + r.thinkUs()) * EVENTS_PER_CYCLE;
            } else if (k instanceof WorkloadSpec.Hackbench h) {
                // Finite: every sender writes loops messages to each receiver of its group; each is read too.
                double messages = 2.0 * h.groups() * h.fdsPerGroup() * h.fdsPerGroup() * h.loops();
                fixed += Math.min(messages, h.threadCount() * cycles(h.messageUs()) * seconds) * EVENTS_PER_CYCLE;
            } else if (k instanceof WorkloadSpec.Schbench s) {
                double requests = s.rps() > 0 ? s.rps()
                        : s.messageThreads() * (double) s.workersPerMessageThread() * cycles(s.requestUs());
                perSecond += requests * EVENTS_PER_CYCLE;
            } else if (k instanceof WorkloadSpec.Trace t) {
                // Each segment is a cycle's half, played once.
                fixed += (double) t.threads() * t.segments().size() / 2.0 * EVENTS_PER_CYCLE;
            } else if (k instanceof WorkloadSpec.Phases p) {
                long us = 0;
                long events = 0;
                for (WorkloadSpec.Phase ph : p.phases()) {
                    for (WorkloadSpec.Event e : ph.events()) {
                        us += Math.max(1, e.us()) * (long) Math.max(1, ph.loop());
                        events += Math.max(1, ph.loop());
                    }
                }
                // The phase list repeats until the end (loop -1) or loop times: its events over its length.
                double cycles = p.loop() < 0 ? seconds * 1e6 / Math.max(1, us) : (double) p.loop();
                fixed += p.threads() * Math.min(cycles, seconds * 1e6 / Math.max(1, us) + 1) * events
                        * EVENTS_PER_CYCLE / 2.0;
            }
            // cpu-bound: its ticks and preemptions are the CPUs' ticks above
        }
        // Each warm-up run is the same run again (EngineSpec.Warmup); the machine alone between them does little.
        return (perSecond * seconds + fixed) * (1 + spec.warmup().runs());
    }

    /** Cycles a second of a cycle this long. */
    private static double cycles(long cycleUs) {
        return 1e6 / Math.max(1, cycleUs);
    }

    /** The bytes of one run's stored report (and about those of its variant's part of the result). */
    public static long reportBytes(EngineSpec spec) {
        long bytes = REPORT_BYTES_BASE + REPORT_BYTES_PER_CPU * spec.topology().cpuCount();
        for (CgroupSpec c : spec.cgroups()) {
            bytes += REPORT_BYTES_PER_GROUP + PATH_COPIES * c.path().length();
        }
        for (WorkloadSpec w : spec.workloads()) {
            bytes += REPORT_BYTES_PER_WORKLOAD + 4L * w.name().length();
        }
        return bytes;
    }

    /** The event budget of a run estimated at {@code estimate} events: far more, never more than {@code max}. */
    public static long budget(double estimate, long max) {
        double b = Math.max(BUDGET_FLOOR, estimate * BUDGET_FACTOR);
        return (long) Math.min(b, max);
    }
}
