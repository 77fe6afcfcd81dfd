package dev.schedsim.engine.event;

import java.util.Arrays;

/**
 * The engine's timer queue over a fixed set of timer <em>slots</em> (one per CPU tick, per running segment, per
 * sleeping task, per bandwidth timer …). Each slot is armed at most once at a time; re-arming moves it. Events
 * are ordered by (time, priority, arming sequence), so ties break the same way on every run. No allocation
 * once the buckets have grown to the run's needs.
 *
 * <p>Like an hrtimer base ({@code kernel/time/hrtimer.c}) but, instead of a red-black tree, a radix heap with
 * 6-bit digits: the simulation only ever arms timers at or after the time it has reached, so the keys are
 * monotone. A timer sits at the <em>level</em> of the highest 6-bit digit in which its time differs from the
 * last time taken out, in the bucket of its own digit there; every timer of a lower level, or of a lower digit
 * on the same level, is earlier. A 64-bit mask per level (and one over the levels) finds the first non-empty
 * bucket with one {@code numberOfTrailingZeros}. Arming and cancelling are O(1); when the timers due at the last
 * time run out, the first bucket is scanned for its earliest time, which becomes the last time, and its timers
 * move to lower levels: a timer moves at most once per level (11 levels; about 3 for a timer armed 50 µs ahead,
 * where the one-bit radix heap this replaces moved it up to 16 times). The timers due exactly at the last time
 * are an indexed binary heap on (priority, sequence) — every CPU's tick, for one, falls due at the same instant.
 * The priority models the order in which the kernel would run same-instant work (timers before the tick).
 */
public final class EventQueue {
    private static final int DIGIT_BITS = 6;
    private static final int LEVELS = (64 + DIGIT_BITS - 1) / DIGIT_BITS;
    /** Bucket 0 is the heap of the timers due at {@link #last}; bucket 1 + 64·level + digit the others. */
    private static final int BUCKETS = 1 + LEVELS * 64;
    /** The level of each highest differing bit. */
    private static final byte[] LEVEL_OF_BIT = new byte[64];

    static {
        for (int b = 0; b < 64; b++) {
            LEVEL_OF_BIT[b] = (byte) (b / DIGIT_BITS);
        }
    }

    private final long[] when;
    private final long[] order;
    /** The bucket a slot is in (-1 = not armed) and its index there (bucket 0: its heap position). */
    private final int[] bucketOf;
    private final int[] indexOf;
    private final int[][] items;
    private final int[] counts;
    /** Bit L: level L has a timer; digits[L] bit d: bucket (L, d) has one. */
    private long levels;
    private final long[] digits = new long[LEVELS];
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
        counts = new int[BUCKETS];
        items[0] = new int[4];
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

    private void insert(int slot) {
        long t = when[slot];
        if (t == last) {
            int n = counts[0];
            if (n == items[0].length) {
                items[0] = Arrays.copyOf(items[0], n * 2);
            }
            counts[0] = n + 1;
            bucketOf[slot] = 0;
            siftUp(n, slot);
            return;
        }
        int level = LEVEL_OF_BIT[63 - Long.numberOfLeadingZeros(t ^ last)];
        // (the sign bit flipped, so the digits of the top level order as the signed times do)
        int digit = (int) ((t ^ Long.MIN_VALUE) >>> (level * DIGIT_BITS)) & 63;
        int b = 1 + (level << 6) + digit;
        int[] a = items[b];
        int n = counts[b];
        if (a == null) {
            a = items[b] = new int[4];
        } else if (n == a.length) {
            a = items[b] = Arrays.copyOf(a, n * 2);
        }
        // (set whether or not the bucket was empty: setting a set bit again costs less than the branch, which
        // mispredicts often — refills fill empty buckets and half-empty ones alike)
        digits[level] |= 1L << digit;
        levels |= 1L << level;
        counts[b] = n + 1;
        a[n] = slot;
        bucketOf[slot] = b;
        indexOf[slot] = n;
    }

    private void remove(int slot) {
        int b = bucketOf[slot];
        int i = indexOf[slot];
        bucketOf[slot] = -1;
        int n = --counts[b];
        if (b != 0) {
            if (i != n) {
                int moved = items[b][n];
                items[b][i] = moved;
                indexOf[moved] = i;
            } else if (n == 0) {
                emptied(b);
            }
            return;
        }
        if (i == n) {
            return;
        }
        int moved = items[0][n];
        if (i > 0 && order[moved] < order[items[0][(i - 1) >>> 1]]) {
            siftUp(i, moved);
        } else {
            siftDown(i, moved);
        }
    }

    /** Bucket b (not 0) has no timer left: clear its digit, and its level when that was the last digit. */
    private void emptied(int b) {
        int level = (b - 1) >>> 6;
        long d = digits[level] & ~(1L << ((b - 1) & 63));
        digits[level] = d;
        if (d == 0) {
            levels &= ~(1L << level);
        }
    }

    /** Bucket 0 ran dry: the earliest time of the first non-empty bucket becomes {@code last}; redistribute. */
    private void refill() {
        int level = Long.numberOfTrailingZeros(levels);
        int b = 1 + (level << 6) + Long.numberOfTrailingZeros(digits[level]);
        int[] a = items[b];
        int n = counts[b];
        long min = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, when[a[i]]);
        }
        last = min;
        counts[b] = 0;
        emptied(b);
        // Every timer of bucket b agrees with the new last on this level and above: it lands lower.
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
        levels = 0;
        Arrays.fill(digits, 0);
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
