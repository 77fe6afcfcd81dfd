package dev.schedsim.engine.event;

import java.util.Arrays;

/**
 * The engine's timer queue over a fixed set of timer <em>slots</em> (one per CPU tick, per running segment, per
 * sleeping task, per bandwidth timer …). Each slot is armed at most once at a time; re-arming moves it. Events
 * are ordered by (time, priority, arming sequence), so ties break the same way on every run. No allocation
 * once the buckets have grown to the run's needs.
 *
 * <p>Like an hrtimer base ({@code kernel/time/hrtimer.c}) but, instead of a red-black tree, a radix heap: the
 * simulation only ever arms timers at or after the time it has reached, so the keys are monotone and each
 * timer sits in the bucket of the highest bit in which its time differs from the last time taken out. Arming
 * and cancelling are O(1); taking the first redistributes one bucket when bucket 0 runs dry. Bucket 0 holds the
 * timers due exactly at that last time and is an indexed binary heap on (priority, sequence) — every CPU's
 * tick, for one, falls due at the same instant. The priority models the order in which the kernel would run
 * same-instant work (timers before the tick).
 */
public final class EventQueue {
    private static final int BUCKETS = 65;

    private final long[] when;
    private final long[] order;
    /** The bucket a slot is in (-1 = not armed) and its index there (bucket 0: its heap position). */
    private final int[] bucketOf;
    private final int[] indexOf;
    private final int[][] items;
    private final int[] counts;
    private int size;
    private long seq;
    /** The time of the last first-taken-out (all armed times are at or after it). */
    private long last;

    public EventQueue(int slots) {
        when = new long[slots];
        order = new long[slots];
        bucketOf = new int[slots];
        indexOf = new int[slots];
        Arrays.fill(bucketOf, -1);
        items = new int[BUCKETS][];
        for (int b = 0; b < BUCKETS; b++) {
            items[b] = new int[4];
        }
        counts = new int[BUCKETS];
    }

    public int capacity() {
        return when.length;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    public boolean armed(int slot) {
        return bucketOf[slot] >= 0;
    }

    public long when(int slot) {
        return when[slot];
    }

    /** Arms (or moves) a slot to fire at {@code time}; priority 0..65535, lower first at equal times. */
    public void arm(int slot, long time, int priority) {
        if (bucketOf[slot] >= 0) {
            remove(slot);
        } else {
            size++;
        }
        when[slot] = time;
        order[slot] = ((long) priority << 47) | (seq++ & ((1L << 47) - 1));
        if (time < last) {
            // Not the simulation's case (it arms at or after now): start the buckets over from this time.
            rebase(time);
        }
        insert(slot);
    }

    public void cancel(int slot) {
        if (bucketOf[slot] >= 0) {
            remove(slot);
            size--;
        }
    }

    /** The slot that fires first, without removing it; -1 when empty. */
    public int peek() {
        if (size == 0) {
            return -1;
        }
        if (counts[0] == 0) {
            refill();
        }
        return items[0][0];
    }

    /** Removes and returns the first slot. */
    public int poll() {
        int s = peek();
        cancel(s);
        return s;
    }

    private int bucket(long time) {
        return time == last ? 0 : 64 - Long.numberOfLeadingZeros(time ^ last);
    }

    private void insert(int slot) {
        int b = bucket(when[slot]);
        int n = counts[b];
        if (n == items[b].length) {
            items[b] = Arrays.copyOf(items[b], n * 2);
        }
        counts[b] = n + 1;
        bucketOf[slot] = b;
        if (b == 0) {
            siftUp(n, slot);
        } else {
            items[b][n] = slot;
            indexOf[slot] = n;
        }
    }

    private void remove(int slot) {
        int b = bucketOf[slot];
        int i = indexOf[slot];
        bucketOf[slot] = -1;
        int n = --counts[b];
        if (i == n) {
            return;
        }
        int moved = items[b][n];
        if (b != 0) {
            items[b][i] = moved;
            indexOf[moved] = i;
        } else if (i > 0 && order[moved] < order[items[0][(i - 1) >>> 1]]) {
            siftUp(i, moved);
        } else {
            siftDown(i, moved);
        }
    }

    /** Bucket 0 ran dry: the earliest time of the first non-empty bucket becomes {@code last}; redistribute. */
    private void refill() {
        int b = 1;
        while (counts[b] == 0) {
            b++;
        }
        int[] a = items[b];
        int n = counts[b];
        long min = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, when[a[i]]);
        }
        last = min;
        counts[b] = 0;
        // Every item of bucket b lands in a lower bucket under the new last (they agree with it above bit b).
        for (int i = 0; i < n; i++) {
            insert(a[i]);
        }
    }

    /** Re-buckets every slot in the buckets under a new, earlier {@code last}. */
    private void rebase(long time) {
        int[] all = new int[size];
        int k = 0;
        for (int b = 0; b < BUCKETS; b++) {
            for (int i = 0; i < counts[b]; i++) {
                all[k++] = items[b][i];
            }
            counts[b] = 0;
        }
        last = time;
        for (int i = 0; i < k; i++) {
            insert(all[i]);
        }
    }

    private void siftUp(int i, int s) {
        int[] h = items[0];
        long o = order[s];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int ps = h[parent];
            if (o >= order[ps]) {
                break;
            }
            h[i] = ps;
            indexOf[ps] = i;
            i = parent;
        }
        h[i] = s;
        indexOf[s] = i;
    }

    private void siftDown(int i, int s) {
        int[] h = items[0];
        int n = counts[0];
        long o = order[s];
        int half = n >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            int cs = h[c];
            int r = c + 1;
            if (r < n && order[h[r]] < order[cs]) {
                c = r;
                cs = h[c];
            }
            if (order[cs] >= o) {
                break;
            }
            h[i] = cs;
            indexOf[cs] = i;
            i = c;
        }
        h[i] = s;
        indexOf[s] = i;
    }
}
