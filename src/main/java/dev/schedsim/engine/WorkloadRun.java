package dev.schedsim.engine;

import dev.schedsim.engine.workload.WorkloadSpec;
import org.HdrHistogram.Histogram;

/**
 * A workload's threads and their programs. Each thread runs a small state machine: {@link #next} returns
 * the next action of a task whose run segment ended (run more work, sleep on a timer, block until woken,
 * or exit), and wakes peers through the simulation as the real program's pipes and futexes would.
 *
 * <p><b>Features:</b> cpu-bound (optional fixed work), periodic (run/sleep with jitter; sleeps end
 * {@link #TIMER_SLACK_NS} late like an hrtimer with the default 50 µs slack), request-response pairs
 * (synchronous wakeups, netperf TCP_RR style), hackbench (senders write {@code loops} messages to each
 * receiver of their group), schbench (message threads wake their workers, which run {@code requestUs}),
 * trace (explicit run/sleep segments).
 * <p><b>Limitations:</b> a hackbench socket buffer holds a fixed number of messages
 * ({@link #HACKBENCH_PIPE_MESSAGES}); kernel time in system calls is modelled only as the hardware model's
 * time per sleep/wakeup.
 */
final class WorkloadRun {
    static final int RUN = 0;
    static final int SLEEP = 1;
    static final int BLOCK = 2;
    static final int EXIT = 3;

    /** current->timer_slack_ns default (50 µs): a usleep() ends that much late. */
    static final long TIMER_SLACK_NS = 50_000;
    /** Work of a schbench message thread per round (the futex wakes themselves), ns. */
    static final long SCHBENCH_MESSAGE_WORK_NS = 2_000;

    final int index;
    final WorkloadSpec spec;
    /** spec.type(), read on every step. */
    private final dev.schedsim.engine.workload.WorkloadType type;
    final Task[] tasks;
    /** Wakeup latency (ns), {@link #grown} as needed. */
    Histogram latency = new Histogram(3);
    final boolean finite;
    /** spec.footprintKb(), read at every context switch. */
    final int footprintKb;
    int live;
    long completionNs = -1;
    long units;
    /**
     * hackbench: messages a receiver's socket buffer holds before a sender's write() sleeps (an assumption
     * standing for the socket buffer; hackbench's 100-byte messages in a small buffer).
     */
    static final int HACKBENCH_PIPE_MESSAGES = 16;
    /** hackbench: senders sleeping on each receiver's full buffer. */
    private java.util.ArrayDeque<Task>[] waiters;
    /** schbench: outstanding workers per message thread. */
    int[] outstanding;
    /** schbench -R: the next worker each message thread hands a request to (cur_tid). */
    private long[] nextWorker;
    /** schbench -R: per worker, its queued requests' stamps (a ring) — head and count. */
    private long[][] reqQueue;
    private int[] reqHead;
    private int[] reqCount;
    /** schbench -R: request latency as schbench prints it (completion − queued − CPU time), ns; else null. */
    Histogram requestLatency;

    WorkloadRun(int index, WorkloadSpec spec, int threads) {
        this.index = index;
        this.spec = spec;
        this.type = spec.type();
        this.tasks = new Task[threads];
        this.live = threads;
        this.footprintKb = spec.footprintKb();
        switch (spec.type()) {
            case CPU_BOUND:
                finite = spec.workUs() > 0;
                break;
            case HACKBENCH:
            case TRACE:
                finite = true;
                break;
            default:
                finite = false;
        }
        requestLatency = spec.type() == dev.schedsim.engine.workload.WorkloadType.SCHBENCH && spec.rps() > 0
                ? new Histogram(3) : null;
    }

    void recordLatency(long ns) {
        Histogram h = recorded(latency, ns);
        if (h != latency) {
            latency = h;
        }
    }

    /** h with v recorded: h itself, or its {@link #grown} copy when v is beyond its range. */
    private static Histogram recorded(Histogram h, long v) {
        if (v > h.getHighestTrackableValue()) {
            h = grown(h, v);
        }
        h.recordValue(v);
        return h;
    }

    /**
     * A copy of h that holds up to 16 times v, for a value v beyond h's range. (HdrHistogram's own auto-resize
     * grows one bucket per doubling of the range, each time by catching an exception and copying the counts: a
     * run's latencies, from ns to the length of a throttle, took ~17 of those, 2.5 % of the 64-CPU benchmark.)
     * The copy keeps the bucket layout — lowest value 1, 3 significant digits — so every percentile is the same.
     * (Callers store the histogram only when it grew: a reference store costs a garbage-collector barrier.)
     */
    static Histogram grown(Histogram h, long v) {
        Histogram g = new Histogram(1, Math.max(v, 2048) << 4, 3);
        g.setAutoResize(true);
        if (h.getTotalCount() > 0) {
            // (usually the first value overflows the initial range: nothing to copy)
            g.add(h);
        }
        return g;
    }

    /** Role of a task: 0 = plain / client / sender / message thread, 1 = server / receiver / worker. */
    static boolean startsBlocked(WorkloadSpec spec, int i) {
        switch (spec.type()) {
            case REQUEST_RESPONSE:
                return i % 2 == 1;
            case HACKBENCH:
                return (i / spec.fdsPerGroup()) % 2 == 1;
            case SCHBENCH:
                return i % (1 + spec.workersPerMessageThread()) != 0;
            default:
                return false;
        }
    }

    /** Wires peers and roles after the tasks exist. */
    void link() {
        switch (spec.type()) {
            case REQUEST_RESPONSE:
                for (int i = 0; i + 1 < tasks.length; i += 2) {
                    tasks[i].peer = tasks[i + 1];
                    tasks[i + 1].peer = tasks[i];
                    tasks[i].aux = 0;
                    tasks[i + 1].aux = 1;
                }
                break;
            case HACKBENCH:
                for (int i = 0; i < tasks.length; i++) {
                    tasks[i].aux = i;
                }
                break;
            case SCHBENCH:
                int per = 1 + spec.workersPerMessageThread();
                outstanding = new int[spec.messageThreads()];
                nextWorker = new long[spec.messageThreads()];
                reqQueue = new long[tasks.length][4];
                reqHead = new int[tasks.length];
                reqCount = new int[tasks.length];
                for (int i = 0; i < tasks.length; i++) {
                    tasks[i].peer = tasks[(i / per) * per];
                    tasks[i].aux = i / per;
                }
                break;
            default:
                break;
        }
    }

    private long jitter(Simulation sim, long ns) {
        int j = spec.jitterPct();
        if (j <= 0 || ns <= 0) {
            return ns;
        }
        double u = sim.random().nextDouble() * 2 - 1;
        return Math.max(0, Math.round(ns * (1 + u * j / 100.0)));
    }

    /**
     * The next action of {@code t}, whose previous segment just ended (or which was just woken / created).
     * Sets {@code t.remainingWork} for RUN and {@code t.auxLong} (sleep ns) for SLEEP.
     */
    int next(Simulation sim, Task t) {
        for (int guard = 0; guard < 1_000_000; guard++) {
            int a = step(sim, t);
            if (a == RUN && t.remainingWork <= 0 && !t.infinite) {
                continue;
            }
            if (a == BLOCK && t.pendingWakes > 0) {
                t.pendingWakes--;
                continue;
            }
            return a;
        }
        throw new IllegalStateException("workload " + spec.name() + " makes no progress");
    }

    private int run(Task t, long ns) {
        t.remainingWork = ns;
        t.infinite = false;
        t.spinNs = 0;
        return RUN;
    }

    /** usec_spin(ns): run until {@code ns} of wall time have passed since the task started the spin. */
    private static int spin(Task t, long ns) {
        t.remainingWork = ns;
        t.infinite = false;
        t.spinNs = ns;
        t.spinUntil = -1;
        return RUN;
    }

    private int step(Simulation sim, Task t) {
        switch (type) {
            case CPU_BOUND:
                if (t.pc == 0) {
                    t.pc = 1;
                    if (spec.workUs() > 0) {
                        return run(t, spec.workUs() * 1000);
                    }
                    t.remainingWork = Long.MAX_VALUE / 4;
                    t.infinite = true;
                    return RUN;
                }
                return EXIT;
            case PERIODIC:
                if (t.pc == 0) {
                    t.pc = 1;
                    return run(t, jitter(sim, spec.runUs() * 1000));
                }
                units++;
                t.pc = 0;
                if (spec.sleepUs() == 0) {
                    t.pc = 1;
                    return run(t, jitter(sim, spec.runUs() * 1000));
                }
                t.auxLong = jitter(sim, spec.sleepUs() * 1000) + TIMER_SLACK_NS;
                return SLEEP;
            case REQUEST_RESPONSE:
                return isServer(t) ? server(sim, t) : client(sim, t);
            case HACKBENCH:
                return hackbench(sim, t);
            case SCHBENCH:
                return schbench(sim, t);
            case TRACE:
                if (t.pc >= spec.segments().size()) {
                    return EXIT;
                }
                WorkloadSpec.Segment s = spec.segments().get(t.pc++);
                units++;
                if (s.run()) {
                    return run(t, s.us() * 1000);
                }
                t.auxLong = s.us() * 1000 + TIMER_SLACK_NS;
                return s.us() == 0 ? step(sim, t) : SLEEP;
            default:
                throw new IllegalStateException("unknown workload type " + spec.type());
        }
    }

    private boolean isServer(Task t) {
        return (t.aux & 1) == 1;
    }

    private int client(Simulation sim, Task t) {
        switch (t.pc) {
            case 0:
                t.pc = 1;
                return run(t, spec.thinkUs() * 1000);
            case 1:
                t.pc = 2;
                sim.wakeTask(t.peer, t.cpu, true);
                return BLOCK;
            default:
                units++;
                t.pc = 1;
                return run(t, spec.thinkUs() * 1000);
        }
    }

    private int server(Simulation sim, Task t) {
        switch (t.pc) {
            case 0:
                t.pc = 1;
                return BLOCK;
            case 1:
                t.pc = 2;
                return run(t, spec.serviceUs() * 1000);
            default:
                t.pc = 1;
                sim.wakeTask(t.peer, t.cpu, true);
                return BLOCK;
        }
    }

    private int hackbench(Simulation sim, Task t) {
        int fds = spec.fdsPerGroup();
        int perGroup = 2 * fds;
        int local = t.aux;
        int group = local / perGroup;
        boolean receiver = (local % perGroup) >= fds;
        int total = spec.loops() * fds;
        if (!receiver) {
            if (t.pc == 0) {
                t.pc = 1;
                return run(t, spec.messageUs() * 1000);
            }
            int msg = (int) t.auxLong;
            Task r = tasks[group * perGroup + fds + (msg % fds)];
            if (r.state != Task.BLOCKED && r.pendingWakes >= HACKBENCH_PIPE_MESSAGES) {
                // The receiver's socket buffer is full: write() sleeps until it reads (pc stays 1: retry).
                waitersOf(r).addLast(t);
                return BLOCK;
            }
            t.auxLong++;
            sim.wakeTask(r, t.cpu, true);
            units++;
            t.pc = 0;
            return t.auxLong >= total ? EXIT : step(sim, t);
        }
        switch (t.pc) {
            case 0:
                t.pc = 1;
                return BLOCK;
            case 1:
                t.pc = 2;
                return run(t, spec.messageUs() * 1000);
            default:
                t.auxLong++;
                t.pc = 1;
                // Reading made room: a sender blocked on this buffer continues.
                java.util.ArrayDeque<Task> w = waiters == null ? null : waiters[t.aux];
                if (w != null && !w.isEmpty()) {
                    sim.wakeTask(w.pollFirst(), t.cpu, true);
                }
                return t.auxLong >= total ? EXIT : BLOCK;
        }
    }

    private java.util.ArrayDeque<Task> waitersOf(Task receiver) {
        if (waiters == null) {
            @SuppressWarnings("unchecked")
            java.util.ArrayDeque<Task>[] w = new java.util.ArrayDeque[tasks.length];
            waiters = w;
        }
        if (waiters[receiver.aux] == null) {
            waiters[receiver.aux] = new java.util.ArrayDeque<>();
        }
        return waiters[receiver.aux];
    }

    /**
     * schbench (Chris Mason's, as of 2020–2021, the version the 5.14 burst patch was measured with). Workers
     * spin {@code requestUs} of wall time per request (usec_spin() reads gettimeofday(), so a worker that is
     * preempted or throttled mid-request does not spin longer, it only finishes late).
     * <ul>
     * <li>Without {@code rps} (msg_and_wait mode): a message thread wakes its workers and waits until all have
     * posted back; the latency schbench reports is the wakeup latency.</li>
     * <li>With {@code rps} (run_rps_thread(), -R): the rate is split over the message threads; each sleeps
     * 1 s / ⌈rate / nr_to_wake⌉ (usleep), then queues a request (stamped with the time) on each of the next
     * nr_to_wake = ⌊2/3 · workers⌋ workers round-robin and posts their futex; a worker serves its queued
     * requests one after another. The latency schbench reports here is the request's completion time minus its
     * queueing time minus the request's CPU time (at least 1 µs): {@link #requestLatency}.</li>
     * </ul>
     */
    private int schbench(Simulation sim, Task t) {
        int per = 1 + spec.workersPerMessageThread();
        int m = t.aux;
        boolean message = t.peer == t;
        boolean rpsMode = spec.rps() > 0;
        if (message) {
            if (t.pc == 0) {
                t.pc = 1;
                return run(t, SCHBENCH_MESSAGE_WORK_NS);
            }
            t.pc = 0;
            int base = m * per;
            int workers = per - 1;
            if (!rpsMode) {
                outstanding[m] = workers;
                for (int w = 1; w < per; w++) {
                    sim.wakeTask(tasks[base + w], t.cpu, false);
                }
                return BLOCK;
            }
            int nrToWake = Math.max(1, workers * 2 / 3);
            int perThread = Math.max(1, spec.rps() / spec.messageThreads());
            int wakeupsRequired = (perThread + nrToWake - 1) / nrToWake;
            for (int i = 0; i < nrToWake; i++) {
                Task w = tasks[base + 1 + (int) (nextWorker[m]++ % workers)];
                queueRequest(w, sim.now);
                sim.wakeTask(w, t.cpu, false);
            }
            t.auxLong = 1_000_000_000L / wakeupsRequired + TIMER_SLACK_NS;
            return SLEEP;
        }
        switch (t.pc) {
            case 0:
                t.pc = 1;
                return BLOCK;
            case 1:
                t.pc = 2;
                if (rpsMode) {
                    t.auxLong = takeRequest(t);
                }
                return spin(t, spec.requestUs() * 1000);
            default:
                units++;
                t.pc = 1;
                if (rpsMode) {
                    long ns = Math.max(1_000, sim.now - t.auxLong - spec.requestUs() * 1000);
                    Histogram h = recorded(requestLatency, ns);
                    if (h != requestLatency) {
                        requestLatency = h;
                    }
                } else if (--outstanding[m] == 0) {
                    sim.wakeTask(t.peer, t.cpu, true);
                }
                return BLOCK;
        }
    }

    /** request_add(): a request stamped {@code now} on the worker's list (FIFO here; served in order). */
    private void queueRequest(Task w, long now) {
        int i = w.id - tasks[0].id;
        if (reqCount[i] == reqQueue[i].length) {
            long[] bigger = new long[reqQueue[i].length * 2];
            for (int k = 0; k < reqCount[i]; k++) {
                bigger[k] = reqQueue[i][(reqHead[i] + k) % reqQueue[i].length];
            }
            reqQueue[i] = bigger;
            reqHead[i] = 0;
        }
        reqQueue[i][(reqHead[i] + reqCount[i]) % reqQueue[i].length] = now;
        reqCount[i]++;
    }

    /** The stamp of the worker's oldest queued request. */
    private long takeRequest(Task w) {
        int i = w.id - tasks[0].id;
        if (reqCount[i] == 0) {
            throw new IllegalStateException("schbench worker woken without a request");
        }
        long v = reqQueue[i][reqHead[i]];
        reqHead[i] = (reqHead[i] + 1) % reqQueue[i].length;
        reqCount[i]--;
        return v;
    }
}
