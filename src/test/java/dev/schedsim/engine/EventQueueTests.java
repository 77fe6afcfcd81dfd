package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.event.EventQueue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The timer queue orders events by (time, priority, arming sequence) so that equal-time events break ties the same way
 * on every run (same spec and seed, same report: {@code DeterminismTests}); re-arming a slot moves it (an hrtimer is
 * armed at most once: hrtimer_start() on an enqueued timer removes it first), cancel removes it (hrtimer_cancel()).
 */
class EventQueueTests {

    private static List<Integer> drain(EventQueue q) {
        List<Integer> out = new ArrayList<>();
        while (!q.isEmpty()) {
            out.add(q.poll());
        }
        return out;
    }

    @Test
    void earlierTimeFiresFirstWhateverThePriority() {
        EventQueue q = new EventQueue(4);
        q.arm(0, 300, 0);
        q.arm(1, 100, 65_535);
        q.arm(2, 200, 7);
        q.arm(3, 50, 65_535);
        assertEquals(List.of(3, 1, 2, 0), drain(q));
    }

    @Test
    void atEqualTimesLowerPriorityFiresFirst() {
        EventQueue q = new EventQueue(4);
        q.arm(0, 1000, 6);
        q.arm(1, 1000, 65_535);
        q.arm(2, 1000, 0);
        q.arm(3, 1000, 3);
        assertEquals(List.of(2, 3, 0, 1), drain(q));
    }

    @Test
    void atEqualTimeAndPriorityTheEarlierArmingFiresFirst() {
        EventQueue q = new EventQueue(5);
        int[] armingOrder = {3, 0, 4, 1, 2};
        for (int slot : armingOrder) {
            q.arm(slot, 42, 5);
        }
        assertEquals(List.of(3, 0, 4, 1, 2), drain(q));
    }

    @Test
    void reArmingMovesTheSlotAndTakesANewSequenceNumber() {
        EventQueue q = new EventQueue(3);
        q.arm(0, 10, 1);
        q.arm(1, 20, 1);
        q.arm(2, 30, 1);
        q.arm(0, 25, 1); // later: now between 1 and 2
        assertEquals(3, q.size(), "a re-armed slot is not queued twice");
        assertEquals(25, q.when(0));
        assertEquals(1, q.peek());
        q.arm(2, 5, 1); // earlier: moves to the front
        assertEquals(List.of(2, 1, 0), drain(q));

        // Re-arming at the same time and priority puts the slot behind slots armed since (new sequence).
        q.arm(0, 7, 2);
        q.arm(1, 7, 2);
        q.arm(0, 7, 2);
        assertEquals(List.of(1, 0), drain(q));
    }

    @Test
    void cancelRemovesOnlyThatSlotAndIsIdempotent() {
        EventQueue q = new EventQueue(4);
        for (int s = 0; s < 4; s++) {
            q.arm(s, 100 - s, 0);
        }
        q.cancel(3); // the head
        q.cancel(1); // in the middle
        q.cancel(1); // again: no effect
        assertFalse(q.armed(3));
        assertFalse(q.armed(1));
        assertTrue(q.armed(0));
        assertEquals(2, q.size());
        assertEquals(List.of(2, 0), drain(q));
        assertEquals(-1, q.peek());
        q.cancel(0); // cancelling an unarmed slot on an empty queue is harmless
        assertTrue(q.isEmpty());
        q.arm(1, 5, 0);
        assertEquals(1, q.peek(), "a cancelled slot can be armed again");
    }

    @Test
    void pollDisarmsTheSlot() {
        EventQueue q = new EventQueue(2);
        q.arm(1, 9, 0);
        assertTrue(q.armed(1));
        assertEquals(1, q.poll());
        assertFalse(q.armed(1));
        assertTrue(q.isEmpty());
    }

    @Test
    void largeTimesAndTheHighestPriorityKeepTheOrder() {
        EventQueue q = new EventQueue(3);
        long t = Long.MAX_VALUE / 2;
        q.arm(0, t, 65_535);
        q.arm(1, t, 0);
        q.arm(2, t - 1, 65_535);
        assertEquals(List.of(2, 1, 0), drain(q));
    }

    /** The reference: a PriorityQueue of (time, priority, sequence) entries with lazy removal. */
    private static final class Reference {
        record Entry(int slot, long time, int priority, long seq) {
        }

        private final PriorityQueue<Entry> heap = new PriorityQueue<>(Comparator.comparingLong(Entry::time)
                .thenComparingInt(Entry::priority).thenComparingLong(Entry::seq));
        private final Entry[] live;
        private long seq;
        private int size;

        Reference(int slots) {
            live = new Entry[slots];
        }

        void arm(int slot, long time, int priority) {
            if (live[slot] == null) {
                size++;
            }
            Entry e = new Entry(slot, time, priority, seq++);
            live[slot] = e;
            heap.add(e);
        }

        void cancel(int slot) {
            if (live[slot] != null) {
                live[slot] = null;
                size--;
            }
        }

        private void skipStale() {
            while (!heap.isEmpty() && live[heap.peek().slot()] != heap.peek()) {
                heap.poll();
            }
        }

        int peek() {
            skipStale();
            return heap.isEmpty() ? -1 : heap.peek().slot();
        }

        int poll() {
            skipStale();
            Entry e = heap.poll();
            live[e.slot()] = null;
            size--;
            return e.slot();
        }
    }

    @Test
    void matchesAReferenceQueueOverRandomOperations() {
        // Few distinct times and priorities, so ties on time and priority are common.
        matchesReference(false);
    }

    @Test
    void matchesAReferenceQueueWithTimesSpreadOverEveryLevel() {
        // Times from 1 ns to 2^50 ns ahead, so timers sit on many levels of the radix heap and move down
        // through them; a few are armed before the last time taken out (the queue starts its buckets over).
        matchesReference(true);
    }

    private static void matchesReference(boolean spread) {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int slots = 1 + rnd.nextInt(64);
            EventQueue q = new EventQueue(slots);
            Reference ref = new Reference(slots);
            long now = 0;
            for (int op = 0; op < 5_000; op++) {
                int kind = rnd.nextInt(10);
                int slot = rnd.nextInt(slots);
                String where = "seed " + seed + " op " + op;
                if (kind < 5) {
                    long ahead = spread ? rnd.nextLong(1L << rnd.nextInt(51)) : rnd.nextInt(20);
                    long time = spread && rnd.nextInt(50) == 0 ? Math.max(0, now - rnd.nextInt(1000)) : now + ahead;
                    int prio = rnd.nextInt(3);
                    q.arm(slot, time, prio);
                    ref.arm(slot, time, prio);
                } else if (kind < 7) {
                    q.cancel(slot);
                    ref.cancel(slot);
                } else if (!q.isEmpty()) {
                    int got = q.poll();
                    now = q.when(got);
                    assertEquals(ref.poll(), got, where);
                }
                assertEquals(ref.size, q.size(), where);
                assertEquals(ref.peek(), q.peek(), where);
                assertEquals(ref.live[slot] != null, q.armed(slot), where);
                if (ref.live[slot] != null) {
                    assertEquals(ref.live[slot].time(), q.when(slot), where);
                }
            }
            while (!q.isEmpty()) {
                assertEquals(ref.poll(), q.poll(), "seed " + seed + " final drain");
            }
            assertEquals(0, ref.size, "seed " + seed);
        }
    }
}
