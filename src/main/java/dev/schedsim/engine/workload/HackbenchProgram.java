package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;

/**
 * hackbench: in each group, every sender writes {@code loops} messages to each receiver of its group; each message
 * costs {@code messageUs} to send and to receive. A receiver's buffer holds {@code bufferMessages} messages (the
 * socket's or pipe's capacity over the message size); a sender that finds it full sleeps in write()
 * (sock_alloc_send_pskb() → sock_wait_for_wmem() while sk_wmem_alloc ≥ sk_sndbuf). The receiver's reads free the
 * messages' memory (sock_wfree() → unix_write_space()), which wakes the sleeping senders, all of them at once
 * (wake_up_interruptible_sync_poll() on a queue they joined with prepare_to_wait(), not exclusively), only once
 * the buffer is down to a quarter (unix_writable(): sk_wmem_alloc × 4 ≤ sk_sndbuf, net/unix/af_unix.c). So
 * senders that filled a buffer sleep while its receiver drains three quarters of it, then come back together.
 *
 * <p>Threads of group g: positions {@code g·2·fds .. g·2·fds + fds − 1} are its senders, the next fds its
 * receivers.
 */
final class HackbenchProgram extends Program {
    /** Messages a receiver's buffer holds before a sender's write() sleeps. */
    private final int bufferMessages;
    /** unix_writable(): at or below this many unread messages the sleeping senders are woken. */
    private final int writableMessages;
    private final int fds;
    private final long messageNs;
    /** Messages each sender sends (to each receiver in turn), and each receiver reads. */
    private final int total;
    private final int[] pc;
    /** Per thread: messages sent (sender) or read (receiver). */
    private final int[] count;
    /**
     * Per thread: a receiver's own index as -1 − index, a sender's first receiver (its group's); and each sender's
     * next receiver. Worked out once, so that a step needs no integer division (three per message, a tenth of a
     * 224-CPU hackbench's time per event).
     */
    private final int[] firstReceiver;
    private final int[] nextReceiver;
    /** Per receiver: the senders sleeping on its full buffer, FIFO (ring, head, size). */
    private final int[][] waiters;
    private final int[] waitHead;
    private final int[] waitSize;

    HackbenchProgram(WorkloadRun run, WorkloadSpec.Hackbench k) {
        super(run);
        this.fds = k.fdsPerGroup();
        this.messageNs = k.messageUs() * 1000;
        this.bufferMessages = k.bufferMessages();
        this.writableMessages = k.bufferMessages() / 4;
        this.total = k.loops() * fds;
        int n = k.threadCount();
        this.pc = new int[n];
        this.count = new int[n];
        this.firstReceiver = new int[n];
        this.nextReceiver = new int[n];
        for (int i = 0; i < n; i++) {
            int first = i / (2 * fds) * 2 * fds + fds;
            firstReceiver[i] = i >= first ? -1 - i : first;
            nextReceiver[i] = first;
        }
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
        return firstReceiver[self] < 0 ? receive(self, t) : send(self, t);
    }

    /** A sender writes to each receiver of its group in turn (receiver count[self] mod fds). */
    private Action send(int self, SimThread t) {
        if (pc[self] == 0) {
            pc[self] = 1;
            return t.run(messageNs);
        }
        int r = nextReceiver[self];
        if (t.unreadWakes(r) >= bufferMessages) {
            // The receiver's socket buffer is full: write() sleeps until it reads (pc stays 1: retry).
            addWaiter(r, self);
            return Action.BLOCK;
        }
        count[self]++;
        nextReceiver[self] = r + 1 == firstReceiver[self] + fds ? firstReceiver[self] : r + 1;
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
                // unix_write_space(): once the buffer is down to a quarter, every sender sleeping on it is woken.
                // (Those sleeping now: a woken sender that finds the buffer full again sleeps anew.)
                if (waitSize[self] > 0 && t.unreadWakes(self) <= writableMessages) {
                    for (int n = waitSize[self]; n > 0; n--) {
                        t.wake(pollWaiter(self), true);
                    }
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
