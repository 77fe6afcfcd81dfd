package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;

/**
 * hackbench: in each group, every sender writes {@code loops} messages to each receiver of its group; each message
 * costs {@code messageUs} to send and to receive. A receiver's buffer holds {@code bufferMessages} messages (the
 * socket's or pipe's capacity over the message size); a sender that finds it full sleeps in write() until the
 * receiver reads one (pipe_write() and unix_stream_sendmsg() sleep on a full buffer, and a read wakes them).
 *
 * <p>Threads of group g: positions {@code g·2·fds .. g·2·fds + fds − 1} are its senders, the next fds its
 * receivers.
 */
final class HackbenchProgram extends Program {
    /** Messages a receiver's buffer holds before a sender's write() sleeps. */
    private final int bufferMessages;
    private final int fds;
    private final long messageNs;
    /** Messages each sender sends (to each receiver in turn), and each receiver reads. */
    private final int total;
    private final int[] pc;
    /** Per thread: messages sent (sender) or read (receiver). */
    private final int[] count;
    /** Per receiver: the senders sleeping on its full buffer, FIFO (ring, head, size). */
    private final int[][] waiters;
    private final int[] waitHead;
    private final int[] waitSize;

    HackbenchProgram(WorkloadRun run, WorkloadSpec.Hackbench k) {
        super(run);
        this.fds = k.fdsPerGroup();
        this.messageNs = k.messageUs() * 1000;
        this.bufferMessages = k.bufferMessages();
        this.total = k.loops() * fds;
        int n = k.threadCount();
        this.pc = new int[n];
        this.count = new int[n];
        this.waiters = new int[n][];
        this.waitHead = new int[n];
        this.waitSize = new int[n];
    }

    @Override
    public boolean finite() {
        return true;
    }

    /** Receivers wait for their first message. */
    @Override
    public boolean startsBlocked(int i) {
        return (i / fds) % 2 == 1;
    }

    @Override
    protected Action step(int self, SimThread t) {
        int perGroup = 2 * fds;
        int group = self / perGroup;
        boolean receiver = (self % perGroup) >= fds;
        return receiver ? receive(self, t) : send(self, group * perGroup + fds, t);
    }

    private Action send(int self, int firstReceiver, SimThread t) {
        if (pc[self] == 0) {
            pc[self] = 1;
            return t.run(messageNs);
        }
        int r = firstReceiver + (count[self] % fds);
        if (t.unreadWakes(r) >= bufferMessages) {
            // The receiver's socket buffer is full: write() sleeps until it reads (pc stays 1: retry).
            addWaiter(r, self);
            return Action.BLOCK;
        }
        count[self]++;
        t.wake(r, true);
        run.units++;
        pc[self] = 0;
        return count[self] >= total ? Action.EXIT : step(self, t);
    }

    private Action receive(int self, SimThread t) {
        switch (pc[self]) {
            case 0:
                pc[self] = 1;
                return Action.BLOCK;
            case 1:
                pc[self] = 2;
                return t.run(messageNs);
            default:
                count[self]++;
                pc[self] = 1;
                // Reading made room: a sender blocked on this buffer continues.
                if (waitSize[self] > 0) {
                    t.wake(pollWaiter(self), true);
                }
                return count[self] >= total ? Action.EXIT : Action.BLOCK;
        }
    }

    private void addWaiter(int receiver, int sender) {
        int[] q = waiters[receiver];
        int n = waitSize[receiver];
        if (q == null || n == q.length) {
            int[] bigger = new int[q == null ? 4 : q.length * 2];
            for (int i = 0; i < n; i++) {
                bigger[i] = q[(waitHead[receiver] + i) % q.length];
            }
            waiters[receiver] = q = bigger;
            waitHead[receiver] = 0;
        }
        q[(waitHead[receiver] + n) % q.length] = sender;
        waitSize[receiver] = n + 1;
    }

    private int pollWaiter(int receiver) {
        int[] q = waiters[receiver];
        int s = q[waitHead[receiver]];
        waitHead[receiver] = (waitHead[receiver] + 1) % q.length;
        waitSize[receiver]--;
        return s;
    }
}
