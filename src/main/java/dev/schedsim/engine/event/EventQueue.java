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
    private final int[] heap;
    private int size;
    private long seq;

    public EventQueue(int slots) {
        when = new long[slots];
        order = new long[slots];
        pos = new int[slots];
        heap = new int[slots];
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
        when[slot] = time;
        order[slot] = ((long) priority << 47) | (seq++ & ((1L << 47) - 1));
        int p = pos[slot];
        if (p < 0) {
            heap[size] = slot;
            pos[slot] = size;
            siftUp(size++);
        } else {
            siftUp(p);
            siftDown(pos[slot]);
        }
    }

    public void cancel(int slot) {
        int p = pos[slot];
        if (p < 0) {
            return;
        }
        pos[slot] = -1;
        int last = heap[--size];
        if (p != size) {
            heap[p] = last;
            pos[last] = p;
            siftUp(p);
            siftDown(pos[last]);
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

    private boolean less(int a, int b) {
        long wa = when[a];
        long wb = when[b];
        return wa < wb || (wa == wb && order[a] < order[b]);
    }

    private void siftUp(int i) {
        int s = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int ps = heap[parent];
            if (!less(s, ps)) {
                break;
            }
            heap[i] = ps;
            pos[ps] = i;
            i = parent;
        }
        heap[i] = s;
        pos[s] = i;
    }

    private void siftDown(int i) {
        int s = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            int cs = heap[c];
            int r = c + 1;
            if (r < size && less(heap[r], cs)) {
                c = r;
                cs = heap[c];
            }
            if (!less(cs, s)) {
                break;
            }
            heap[i] = cs;
            pos[cs] = i;
            i = c;
        }
        heap[i] = s;
        pos[s] = i;
    }
}
