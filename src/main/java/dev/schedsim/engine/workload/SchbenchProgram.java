package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;

/**
 * schbench (Chris Mason's, as of 2020–2021, the version the 5.14 burst patch was measured with). Threads
 * {@code m·per} are message threads, the {@code per − 1} after each its workers. Workers spin {@code requestUs} of
 * wall time per request (usec_spin() reads gettimeofday(), so a worker that is preempted or throttled mid-request
 * does not spin longer, it only finishes late).
 * <ul>
 * <li>Without {@code rps} (msg_and_wait mode): a message thread wakes its workers and waits until all have posted
 * back; the latency schbench reports is the wakeup latency.</li>
 * <li>With {@code rps} (run_rps_thread(), -R): the rate is split over the message threads; each sleeps
 * 1 s / ⌈rate / nr_to_wake⌉ (usleep), then queues a request (stamped with the time) on each of the next
 * nr_to_wake = ⌊2/3 · workers⌋ workers round-robin and posts their futex; a worker serves its queued requests one
 * after another. The latency schbench reports here is the request's completion time minus its queueing time minus
 * the request's CPU time (at least 1 µs): {@link WorkloadRun#requestLatency}.</li>
 * </ul>
 */
public final class SchbenchProgram extends Program {
    /** Work of a schbench message thread per round (the futex wakes themselves), ns. */
    public static final long MESSAGE_WORK_NS = 2_000;

    private final int per;
    private final int messageThreads;
    private final long requestNs;
    private final int rps;
    private final int[] pc;
    /** Outstanding workers per message thread (msg_and_wait mode). */
    private final int[] outstanding;
    /** -R: the next worker each message thread hands a request to (cur_tid). */
    private final long[] nextWorker;
    /** -R: per worker, its queued requests' stamps (a ring), head and count; and the one it serves. */
    private final long[][] reqQueue;
    private final int[] reqHead;
    private final int[] reqCount;
    private final long[] serving;

    SchbenchProgram(WorkloadRun run, WorkloadSpec.Schbench k) {
        super(run);
        this.per = 1 + k.workersPerMessageThread();
        this.messageThreads = k.messageThreads();
        this.requestNs = k.requestUs() * 1000;
        this.rps = k.rps();
        int n = k.threadCount();
        this.pc = new int[n];
        this.outstanding = new int[messageThreads];
        this.nextWorker = new long[messageThreads];
        this.reqQueue = new long[n][4];
        this.reqHead = new int[n];
        this.reqCount = new int[n];
        this.serving = new long[n];
    }

    @Override
    public boolean finite() {
        return false;
    }

    /** Workers wait for their first request. */
    @Override
    public boolean startsBlocked(int i) {
        return i % per != 0;
    }

    @Override
    protected Action step(int self, SimThread t) {
        return self % per == 0 ? message(self, t) : worker(self, t);
    }

    private Action message(int self, SimThread t) {
        if (pc[self] == 0) {
            pc[self] = 1;
            return t.run(MESSAGE_WORK_NS);
        }
        pc[self] = 0;
        int m = self / per;
        int workers = per - 1;
        if (rps <= 0) {
            outstanding[m] = workers;
            for (int w = 1; w < per; w++) {
                t.wake(self + w, false);
            }
            return Action.BLOCK;
        }
        int nrToWake = Math.max(1, workers * 2 / 3);
        int perThread = Math.max(1, rps / messageThreads);
        int wakeupsRequired = (perThread + nrToWake - 1) / nrToWake;
        for (int i = 0; i < nrToWake; i++) {
            int w = self + 1 + (int) (nextWorker[m]++ % workers);
            queueRequest(w, t.now());
            t.wake(w, false);
        }
        return t.sleep(1_000_000_000L / wakeupsRequired, TIMER_SLACK_NS);
    }

    private Action worker(int self, SimThread t) {
        switch (pc[self]) {
            case 0:
                pc[self] = 1;
                return Action.BLOCK;
            case 1:
                pc[self] = 2;
                if (rps > 0) {
                    serving[self] = takeRequest(self);
                }
                return t.spin(requestNs);
            default:
                run.units++;
                pc[self] = 1;
                if (rps > 0) {
                    run.recordRequestLatency(Math.max(1_000, t.now() - serving[self] - requestNs));
                } else if (--outstanding[self / per] == 0) {
                    t.wake(self / per * per, true);
                }
                return Action.BLOCK;
        }
    }

    /** request_add(): a request stamped {@code now} on the worker's list (FIFO here; served in order). */
    private void queueRequest(int i, long now) {
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
    private long takeRequest(int i) {
        if (reqCount[i] == 0) {
            throw new IllegalStateException("schbench worker woken without a request");
        }
        long v = reqQueue[i][reqHead[i]];
        reqHead[i] = (reqHead[i] + 1) % reqQueue[i].length;
        reqCount[i]--;
        return v;
    }
}
