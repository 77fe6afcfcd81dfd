package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;

/**
 * request-response: client/server pairs (netperf TCP_RR style) with synchronous wakeups. Threads 2k (client) and
 * 2k+1 (server) are a pair: the client thinks, wakes its server and blocks; the server serves, wakes the client
 * and blocks. A transaction is one round trip.
 */
final class RequestResponseProgram extends Program {
    private final long serviceNs;
    private final long thinkNs;
    /** Per thread: where it is in its loop. */
    private final int[] pc;

    RequestResponseProgram(WorkloadRun run, WorkloadSpec.RequestResponse k) {
        super(run);
        this.serviceNs = k.serviceUs() * 1000;
        this.thinkNs = k.thinkUs() * 1000;
        this.pc = new int[k.threadCount()];
    }

    @Override
    public boolean finite() {
        return false;
    }

    /** Servers wait for their first request. */
    @Override
    public boolean startsBlocked(int i) {
        return i % 2 == 1;
    }

    @Override
    protected Action step(int self, SimThread t) {
        return (self & 1) == 1 ? server(self, t) : client(self, t);
    }

    private Action client(int self, SimThread t) {
        switch (pc[self]) {
            case 0:
                pc[self] = 1;
                return t.run(thinkNs);
            case 1:
                pc[self] = 2;
                t.wake(self + 1, true);
                return Action.BLOCK;
            default:
                run.units++;
                pc[self] = 1;
                return t.run(thinkNs);
        }
    }

    private Action server(int self, SimThread t) {
        switch (pc[self]) {
            case 0:
                pc[self] = 1;
                return Action.BLOCK;
            case 1:
                pc[self] = 2;
                return t.run(serviceNs);
            default:
                pc[self] = 1;
                t.wake(self - 1, true);
                return Action.BLOCK;
        }
    }
}
