package dev.schedsim.engine.event;

import java.util.Arrays;

/**
 * The engine's timer queue: an indexed binary min-heap over a fixed set of timer <em>slots</em> (one per CPU
 * tick, per running segment, per sleeping task, per bandwidth timer …). Each slot is armed at most once at a
 * time; re-arming moves it. Events are ordered by (time, priority, arming sequence), so ties break the same
 * way on every run. No allocation after construction.
 *
 * <p>Like an hrtimer base ({@code kernel/time/hrtimer.c}) but a heap rather than a red-black tree; the
 * priority models the order in which the kernel would run same-instant work (timers before the tick).
 */
public final class EventQueue {
    private final long[] when;
    private final long[] order;
    private final int[] pos;
    /** The heap: slots, with their keys copied alongside so that sifting compares without an indirection. */
    private final int[] heap;
    private final long[] heapWhen;
    private final long[] heapOrder;
    private int size;
    private long seq;

    public EventQueue(int slots) {
        when = new long[slots];
        order = new long[slots];
        pos = new int[slots];
        heap = new int[slots];
        heapWhen = new long[slots];
        heapOrder = new long[slots];
        Arrays.fill(pos, -1);
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
        return pos[slot] >= 0;
    }

    public long when(int slot) {
        return when[slot];
    }

    /** Arms (or moves) a slot to fire at {@code time}; priority 0..65535, lower first at equal times. */
    public void arm(int slot, long time, int priority) {
        long o = ((long) priority << 47) | (seq++ & ((1L << 47) - 1));
        when[slot] = time;
        order[slot] = o;
        int p = pos[slot];
        if (p < 0) {
            siftUp(size++, slot, time, o);
        } else if (less(time, o, heapWhen[p], heapOrder[p])) {
            siftUp(p, slot, time, o);
        } else {
            siftDown(p, slot, time, o);
        }
    }

    public void cancel(int slot) {
        int p = pos[slot];
        if (p < 0) {
            return;
        }
        pos[slot] = -1;
        int n = --size;
        if (p != n) {
            int last = heap[n];
            long lw = heapWhen[n];
            long lo = heapOrder[n];
            if (p > 0 && less(lw, lo, heapWhen[(p - 1) >>> 1], heapOrder[(p - 1) >>> 1])) {
                siftUp(p, last, lw, lo);
            } else {
                siftDown(p, last, lw, lo);
            }
        }
    }

    /** The slot that fires first, without removing it; -1 when empty. */
    public int peek() {
        return size == 0 ? -1 : heap[0];
    }

    /** Removes and returns the first slot. */
    public int poll() {
        int s = heap[0];
        cancel(s);
        return s;
    }

    private static boolean less(long wa, long oa, long wb, long ob) {
        return wa < wb || (wa == wb && oa < ob);
    }

    /** Places slot {@code s} (key w, o) at or above the hole {@code i}. */
    private void siftUp(int i, int s, long w, long o) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pw = heapWhen[parent];
            long po = heapOrder[parent];
            if (!less(w, o, pw, po)) {
                break;
            }
            int ps = heap[parent];
            heap[i] = ps;
            heapWhen[i] = pw;
            heapOrder[i] = po;
            pos[ps] = i;
            i = parent;
        }
        heap[i] = s;
        heapWhen[i] = w;
        heapOrder[i] = o;
        pos[s] = i;
    }

    /** Places slot {@code s} (key w, o) at or below the hole {@code i}. */
    private void siftDown(int i, int s, long w, long o) {
        int half = size >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            long cw = heapWhen[c];
            long co = heapOrder[c];
            int r = c + 1;
            if (r < size && less(heapWhen[r], heapOrder[r], cw, co)) {
                c = r;
                cw = heapWhen[r];
                co = heapOrder[r];
            }
            if (!less(cw, co, w, o)) {
                break;
            }
            int cs = heap[c];
            heap[i] = cs;
            heapWhen[i] = cw;
            heapOrder[i] = co;
            pos[cs] = i;
            i = c;
        }
        heap[i] = s;
        heapWhen[i] = w;
        heapOrder[i] = o;
        pos[s] = i;
    }
}
