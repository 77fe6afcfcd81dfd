package dev.schedsim.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * HackbenchProgram's socket, stepped by hand: one sender, one receiver, a buffer of 8 messages. The sender sleeps on
 * the ninth write; the receiver's reads wake it only once the buffer is down to a quarter (unix_writable():
 * 2 left), and then every sleeping sender at once.
 */
class HackbenchProgramTests {
    /** A thread as the program sees it: the messages it was sent and not yet read, the wakes it sent. */
    private static final class Thread implements SimThread {
        final int self;
        final int[] unread;
        final List<Integer> woken;

        Thread(int self, int[] unread, List<Integer> woken) {
            this.self = self;
            this.unread = unread;
            this.woken = woken;
        }

        public int index() {
            return self;
        }

        public Action run(long ns) {
            return Action.RUN;
        }

        public Action runForever() {
            return Action.RUN;
        }

        public Action spin(long ns) {
            return Action.RUN;
        }

        public Action sleep(long ns) {
            return Action.RUN;
        }

        public Action sleep(long ns, long slackNs) {
            return Action.RUN;
        }

        public long now() {
            return 0;
        }

        public SplittableRandom random() {
            return new SplittableRandom(1);
        }

        public void wake(int thread, boolean sync) {
            woken.add(thread);
            if (thread == 1) {
                unread[1]++; // a message for the receiver
            }
        }

        public int unreadWakes(int thread) {
            return unread[thread];
        }
    }

    @Test
    void sleepingSendersAreWokenOnceTheBufferIsDownToAQuarter() {
        WorkloadRun run = new WorkloadRun(0, WorkloadSpec.of("hb", "/", new WorkloadSpec.Hackbench(1, 1, 100, 4, 8)),
                null);
        Program p = run.program;
        int[] unread = new int[2];
        List<Integer> woken = new ArrayList<>();
        Thread sender = new Thread(0, unread, woken);
        Thread receiver = new Thread(1, unread, woken);
        // The sender writes until the buffer holds 8: each write is a run and then a wake of the receiver.
        Action a = Action.RUN;
        int writes = 0;
        while ((a = p.step(0, sender)) == Action.RUN && writes < 100) {
            writes++;
        }
        assertEquals(Action.BLOCK, a, "the sender sleeps on a full buffer");
        assertEquals(8, unread[1], "8 messages in the buffer");
        woken.clear();
        // The receiver reads: its first step blocks for a message (there are 8), then it reads one per two steps.
        p.step(1, receiver); // pc 0 -> waits; the program then runs its read
        int reads = 0;
        while (woken.isEmpty() && reads < 8) {
            assertEquals(Action.RUN, p.step(1, receiver)); // reading a message costs its time
            unread[1]--; // the message consumed
            p.step(1, receiver); // the read done: room made
            reads++;
        }
        assertEquals(6, reads, "woken after 6 reads, with 2 left (a quarter of 8)");
        assertEquals(List.of(0), woken, "the sleeping sender, once");
    }
}
