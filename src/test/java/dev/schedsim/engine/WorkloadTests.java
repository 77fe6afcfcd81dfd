package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.workload.Program;
import dev.schedsim.engine.workload.SchbenchProgram;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.engine.spec.WorkloadSpec.Segment;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The workload programs (engine.workload) on an otherwise idle machine, where every expected value follows from
 * the spec's inputs, the 50 µs timer slack of a sleep ({@link Program#TIMER_SLACK_NS}, like
 * current->timer_slack_ns) and the idle-state exit latencies of the machine they run on (validation-2c's
 * hardware model): a CPU idle for at least deepIdleResidencyNs pays deepIdleExitNs to wake, otherwise
 * shallowIdleExitNs, and the task it wakes pays about as long again in CPU time (the cold wake path).
 */
class WorkloadTests {
    static final HardwareModel HW = Specs.preset("validation-2c").hardware();
    static final double SLACK_US = Program.TIMER_SLACK_NS / 1000.0;

    /** The exit latency (µs) paid by a CPU that was idle for {@code idleUs}. */
    static double exitUs(double idleUs) {
        return (idleUs * 1000 >= HW.deepIdleResidencyNs() ? HW.deepIdleExitNs() : HW.shallowIdleExitNs()) / 1000.0;
    }

    static Report runAlone(WorkloadSpec w, long durationUs) {
        return Specs.run(Specs.spec(Specs.frictionless(Specs.preset("validation-2c")), Specs.kernel("6.18"), List.of(), List.of(w),
                durationUs), 1);
    }

    static void assertNear(double expected, double actual, double relTolerance, String what) {
        assertTrue(Math.abs(actual - expected) <= relTolerance * Math.abs(expected),
                what + ": " + actual + ", expected " + expected + " ± " + relTolerance * 100 + " %");
    }

    @Test
    void periodicRunsItsShareOfTime() {
        long runUs = 2_000;
        long sleepUs = 8_000;
        long durationUs = 1_000_000;
        Report r = runAlone(WorkloadSpec.periodic("p", "/", 1, runUs, sleepUs), durationUs);
        Report.WorkloadReport w = Specs.workload(r, "p");
        // Each cycle: run, then sleep + timer slack; usage = run / (run + sleep + slack) within 3 %.
        double usage = (double) w.cpuUsec() / r.simulatedUs();
        assertNear(runUs / (runUs + sleepUs + SLACK_US), usage, 0.03, "usage share");
        // More precisely, the CPU also waits out the exit latency of the idle state the sleep reached, and the
        // woken thread then pays it again as CPU time.
        double exit = exitUs(sleepUs + SLACK_US);
        double cycleUs = runUs + sleepUs + SLACK_US + 2 * exit;
        double cycles = w.throughputPerSec() * r.simulatedUs() / 1e6;
        assertTrue(Math.abs(cycles - durationUs / cycleUs) <= 1, "cycles " + cycles + " vs " + durationUs / cycleUs);
        assertNear((runUs + exit) / cycleUs, usage, 0.01, "usage with idle exit");
        // Exactly: every wakeup's exit, and the runs of every cycle begun (the last may be cut by the end).
        long wakeups = w.wakeups();
        assertTrue(w.cpuUsec() >= wakeups * (runUs + exit) - 1 && w.cpuUsec() <= (wakeups + 1) * runUs
                + wakeups * exit + 1, "cpuUsec " + w.cpuUsec() + " for " + wakeups + " wakeups");
        // Nothing else runs, so a wakeup waits only for the idle exit.
        assertNear(exitUs(sleepUs + SLACK_US), w.wakeupLatencyUs().p50(), 0.01, "wakeup latency p50");
        assertEquals(w.wakeups(), w.wakeupLatencyUs().count());
        assertEquals(durationUs, r.simulatedUs(), "a periodic workload never finishes");
        assertEquals(-1, w.completionUs());
    }

    @Test
    void requestResponseTransactionRate() {
        long serviceUs = 50;
        long thinkUs = 20;
        long durationUs = 1_000_000;
        Report r = runAlone(WorkloadSpec.requestResponse("rr", "/", 1, serviceUs, thinkUs), durationUs);
        Report.WorkloadReport w = Specs.workload(r, "rr");
        double tps = w.throughputPerSec();
        // One transaction = the client's think time + the server's service time, serialised.
        assertNear(1e6 / (serviceUs + thinkUs), tps, 0.15, "transactions per second");
        // It cannot beat the serial work, and each of its two wakeups costs at most one idle exit waited out and
        // one paid as CPU time; the gaps (think and service time) are far below the deep-idle residency, so that
        // exit is the shallow one.
        double exit = exitUs(Math.max(serviceUs, thinkUs));
        double upper = 1e6 / (serviceUs + thinkUs);
        double lower = 1e6 / (serviceUs + thinkUs + 4 * exit);
        assertTrue(tps <= upper * 1.0001 && tps >= lower * 0.999, "tps " + tps + " outside [" + lower + ", "
                + upper + "]");
        // CPU time = transactions × (service + think) + at most one exit per wakeup, up to one transaction in
        // flight at the end.
        double transactions = tps * r.simulatedUs() / 1e6;
        double work = transactions * (serviceUs + thinkUs);
        assertTrue(w.cpuUsec() >= work - 2 * (serviceUs + thinkUs)
                        && w.cpuUsec() <= work + 2 * transactions * exit + 2 * (serviceUs + thinkUs),
                "cpuUsec " + w.cpuUsec() + " for " + transactions + " transactions");
        // Two wakeups per transaction (request and reply).
        assertTrue(Math.abs(w.wakeups() - 2 * transactions) <= 2, "wakeups " + w.wakeups());
    }

    @Test
    void cpuBoundWithWorkCompletesAndEndsTheRunEarly() {
        long workUs = 50_000;
        long durationUs = 1_000_000;
        Report r = runAlone(WorkloadSpec.cpuBound("c", "/", 1, workUs), durationUs);
        Report.WorkloadReport w = Specs.workload(r, "c");
        // Alone on a CPU that starts idle: the work, plus one shallow idle exit at time 0.
        assertNear(workUs + HW.shallowIdleExitNs() / 1000.0, w.completionUs(), 0.001, "completionUs");
        assertTrue(r.simulatedUs() < durationUs, "every finite workload is done: the run stops early");
        assertEquals(w.completionUs(), r.simulatedUs());
        assertEquals(workUs, w.cpuUsec(), 1);
        assertNear(1.0, w.throughputPerSec(), 0.001, "one CPU-second of work per second");
    }

    @Test
    void cpuBoundWorkIsSharedAcrossCpus() {
        long workUs = 50_000;
        int threads = 4;
        Report r = runAlone(WorkloadSpec.cpuBound("c", "/", threads, workUs), 1_000_000);
        Report.WorkloadReport w = Specs.workload(r, "c");
        // 4 × 50 ms of work on 2 CPUs: the last thread cannot finish before 100 ms, and with two threads on
        // each CPU sharing it fairly all finish together at about 100 ms.
        double allWork = (double) threads * workUs / 2;
        assertTrue(w.completionUs() >= allWork, "completion " + w.completionUs() + " before " + allWork);
        assertNear(allWork, w.completionUs(), 0.01, "completionUs");
        assertEquals(threads * workUs, w.cpuUsec(), threads);
    }

    @Test
    void anEndlessWorkloadKeepsTheRunGoing() {
        long durationUs = 300_000;
        Report r = Specs.run(Specs.spec(Specs.frictionless(Specs.preset("validation-2c")), Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.cpuBound("finite", "/", 1, 10_000), WorkloadSpec.cpuBound("endless", "/", 1, 0)),
                durationUs), 1);
        assertEquals(durationUs, r.simulatedUs());
        assertTrue(Specs.workload(r, "finite").completionUs() > 0);
        assertEquals(-1, Specs.workload(r, "endless").completionUs());
    }

    @Test
    void traceCompletesAfterItsSegments() {
        List<Segment> segs = List.of(new Segment(true, 10_000), new Segment(false, 5_000), new Segment(true, 3_000),
                new Segment(false, 500), new Segment(true, 1_000));
        Report r = runAlone(TestWorkloads.trace("t", "/", 1, segs), 1_000_000);
        Report.WorkloadReport w = Specs.workload(r, "t");
        double plain = 0;
        double exact = HW.shallowIdleExitNs() / 1000.0; // the CPU leaves idle at time 0
        double cpuUs = 0;
        for (Segment s : segs) {
            if (s.run()) {
                plain += s.us();
                exact += s.us();
                cpuUs += s.us();
            } else {
                // each wakeup waits out the idle exit, then pays it again as CPU time
                double exit = exitUs(s.us() + SLACK_US);
                plain += s.us() + SLACK_US;
                exact += s.us() + SLACK_US + 2 * exit;
                cpuUs += exit;
            }
        }
        assertNear(plain, w.completionUs(), 0.01, "Σ segments + slack per sleep");
        assertNear(exact, w.completionUs(), 0.001, "… + the idle exit of each wakeup");
        assertEquals(cpuUs, w.cpuUsec(), 1);
        assertEquals(w.completionUs(), r.simulatedUs(), "a trace is finite: the run ends with it");
        // Throughput counts segments.
        assertNear(segs.size(), w.throughputPerSec() * r.simulatedUs() / 1e6, 0.001, "segments");
    }

    @Test
    void hackbenchDeliversEveryMessage() {
        int groups = 2;
        int fds = 4;
        int loops = 10;
        long messageUs = 5;
        Report r = runAlone(TestWorkloads.hackbench("h", "/", groups, fds, loops, messageUs), 1_000_000);
        Report.WorkloadReport w = Specs.workload(r, "h");
        // Each sender writes `loops` messages to each of the fds receivers of its group.
        long messages = (long) groups * fds * loops * fds;
        assertTrue(w.completionUs() > 0, "hackbench finishes");
        assertEquals(w.completionUs(), r.simulatedUs());
        assertTrue(w.throughputPerSec() > 0);
        assertNear(messages, w.throughputPerSec() * r.simulatedUs() / 1e6, 0.001, "messages");
        // Work per message: messageUs to send and messageUs to receive (no SMT on validation-2c).
        assertEquals(2 * messages * messageUs, w.cpuUsec(), groups * fds * 2);
        // Two CPUs cannot do it faster than half the CPU time.
        assertTrue(w.completionUs() >= w.cpuUsec() / 2);
        assertTrue(w.wakeupLatencyUs().count() > 0, "receivers are woken");
        assertTrue(w.wakeupLatencyUs().count() <= w.wakeups());
    }

    @Test
    void schbenchServesRequestsAndRecordsLatency() {
        long requestUs = 100;
        Report r = Specs.run(Specs.spec(Specs.frictionless(Specs.preset("desktop-8c-smt2")), Specs.kernel("6.18"), List.of(),
                List.of(TestWorkloads.schbench("s", "/", 2, 4, requestUs, 0)), 200_000), 1);
        Report.WorkloadReport w = Specs.workload(r, "s");
        assertTrue(w.throughputPerSec() > 0, "requests served");
        assertTrue(w.wakeupLatencyUs().count() > 0, "wakeup latency recorded");
        assertTrue(w.wakeupLatencyUs().count() <= w.wakeups());
        assertTrue(w.wakeupLatencyUs().count() >= w.wakeups() - 10, "at most one pending wakeup per thread");
        assertEquals(-1, w.completionUs(), "schbench runs until the end");
        // Each completed request did requestUs of work at full speed at most, so CPU time covers it.
        double requests = w.throughputPerSec() * r.simulatedUs() / 1e6;
        assertTrue(w.cpuUsec() >= requests * requestUs * 0.999, "cpuUsec " + w.cpuUsec() + " < requests × work");
    }

    @Test
    void schbenchWithATargetRateKeepsBelowIt() {
        int rps = 1000;
        int workers = 3;
        Report r = runAlone(TestWorkloads.schbench("s", "/", 1, workers, 100, rps), 1_000_000);
        Report.WorkloadReport w = Specs.workload(r, "s");
        // run_rps_thread(): nr_to_wake = 2/3 of the workers (2) per round, ⌈rps / nr_to_wake⌉ rounds a second, so
        // a usleep of 1 s / 500 (plus the 50 µs timer slack) after the message thread's own short work, and its CPU
        // pays the exit latency of the idle state reached.
        int nrToWake = workers * 2 / 3;
        double intervalUs = 1e6 / ((rps + nrToWake - 1) / nrToWake) + Program.TIMER_SLACK_NS / 1000.0;
        double roundUs = intervalUs + SchbenchProgram.MESSAGE_WORK_NS / 1000.0 + exitUs(intervalUs);
        assertTrue(w.throughputPerSec() <= rps, "above the target rate: " + w.throughputPerSec());
        assertNear(nrToWake * 1e6 / roundUs, w.throughputPerSec(), 0.01, "requests per second");
        assertTrue(w.requestLatencyUs() != null, "rps mode reports schbench's request latency");
        assertEquals(Math.round(w.throughputPerSec() * r.simulatedUs() / 1e6), w.requestLatencyUs().count(), 1.0);
        // Three workers on two CPUs, all idle between rounds: a request waits for its wakeup, and sometimes also
        // for the other request on its CPU: when the CPU the message thread leaves skips the newidle balance that
        // would have pulled it. NI_RANDOM's die skips most of them here, since most of this CPU's newidle balances
        // find nothing to pull; without NI_RANDOM every request waits only for its wakeup.
        Report.Latency l = w.requestLatencyUs();
        assertTrue(l.p50() < 100, "request latency p50 " + l.p50());
        assertTrue(l.max() < 2 * 100 + 10, "request latency max " + l.max());
        Report always = Specs.run(Specs.spec(Specs.frictionless(Specs.preset("validation-2c")),
                Specs.kernel("6.18", 250, new EnumMap<>(Map.of(Feature.NI_RANDOM, false))), List.of(),
                List.of(TestWorkloads.schbench("s", "/", 1, workers, 100, rps)), 1_000_000), 1);
        Report.Latency l0 = Specs.workload(always, "s").requestLatencyUs();
        assertTrue(l0.max() < 100, "request latency max without NI_RANDOM " + l0.max());
        assertTrue(l.p90() > l0.p90(), "NI_RANDOM changes nothing: " + l + " and " + l0);
    }

    /**
     * schbench's usec_spin() reads the wall clock: a request takes requestUs of wall time whatever the CPU's
     * speed, and a request whose worker is throttled past the end of its spin finishes only when it runs again —
     * schbench -R counts that wait in its latency (completion − queued − CPU time).
     */
    @Test
    void schbenchRequestsSpinWallTimeAndCountThrottledTimeInTheirLatency() {
        // One worker, 10 ms requests every ~10.05 ms (1 worker: nr_to_wake 1, 100 rounds/s) in a group allowed
        // 5 ms per 10 ms period: each request is throttled for about the rest of the period.
        WorkloadSpec sb = TestWorkloads.schbench("s", "/g", 1, 1, 10_000, 100);
        Report limited = Specs.run(Specs.spec(Specs.frictionless(Specs.preset("validation-2c")), Specs.kernel("6.1"),
                List.of(new dev.schedsim.engine.spec.CgroupSpec("/g", 5_000, 10_000, 0, 100)), List.of(sb),
                1_000_000), 1);
        Report free = Specs.run(Specs.spec(Specs.frictionless(Specs.preset("validation-2c")), Specs.kernel("6.1"),
                List.of(dev.schedsim.engine.spec.CgroupSpec.unlimited("/g", 100)), List.of(sb),
                1_000_000), 1);
        Report.WorkloadReport wl = Specs.workload(limited, "s");
        Report.WorkloadReport wf = Specs.workload(free, "s");
        double requests = wf.throughputPerSec() * free.simulatedUs() / 1e6;
        // A request is 10 ms of CPU (a wall-clock spin), one possibly in flight at the end, plus the message
        // thread's 2 µs per round.
        assertTrue(wf.cpuUsec() >= requests * 10_000 && wf.cpuUsec() <= (requests + 1) * 10_000 + requests * 3,
                "cpuUsec " + wf.cpuUsec() + " for " + requests + " requests of 10 ms");
        assertTrue(wf.requestLatencyUs().p50() < 100, "unlimited: latency is the wakeup only");
        assertTrue(wl.requestLatencyUs().p50() > 1_000, "limited: the throttled wait counts, p50 "
                + wl.requestLatencyUs().p50());
        assertTrue(wl.wakeupLatencyUs().p50() < 100, "the wakeup itself is not delayed: the throttle hits the run");
    }
}
