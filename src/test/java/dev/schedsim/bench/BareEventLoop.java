package dev.schedsim.bench;

/**
 * The limit the engine's event rate is measured against: a discrete-event loop that does nothing but its queue.
 * A binary min-heap of {@code entries} pending events (4 096 for the speed issue: about the timers of a 256-CPU
 * run with a thousand threads); each event is taken out, and one event is put in its place a pseudo-random delay
 * (1 ns to 1 ms, xorshift) later, so the heap stays full and every event costs a pop and a push, as the engine's
 * loop does (a run segment's end is taken out, the next one armed). Keys are time and slot in one long, so ties
 * break by slot and the loop is deterministic.
 */
public final class BareEventLoop {
    private static final int SLOT_BITS = 16;

    private final long[] heap;
    private int size;
    private long rnd = 0x9E3779B97F4A7C15L;

    public BareEventLoop(int entries) {
        if (entries < 1 || entries > 1 << SLOT_BITS) {
            throw new IllegalArgumentException("entries " + entries);
        }
        heap = new long[entries];
        for (int s = 0; s < entries; s++) {
            push(key(nextDelay(), s));
        }
    }

    /**
     * Runs {@code events} events; returns a digest of the last event's time and slot (so that the JIT cannot drop
     * the loop, and a test can see that it is deterministic).
     */
    public long run(long events) {
        long last = 0;
        for (long i = 0; i < events; i++) {
            last = poll();
            long time = last >>> SLOT_BITS;
            int slot = (int) (last & ((1 << SLOT_BITS) - 1));
            push(key(time + nextDelay(), slot));
        }
        return last;
    }

    public int size() {
        return size;
    }

    private static long key(long time, int slot) {
        return (time << SLOT_BITS) | slot;
    }

    /** xorshift64: 1 ns .. 1 ms. */
    private long nextDelay() {
        long x = rnd;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        rnd = x;
        return 1 + (x >>> 1) % 1_000_000;
    }

    private void push(long k) {
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long p = heap[parent];
            if (k >= p) {
                break;
            }
            heap[i] = p;
            i = parent;
        }
        heap[i] = k;
    }

    private long poll() {
        long top = heap[0];
        long k = heap[--size];
        int n = size;
        int i = 0;
        int half = n >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            long ck = heap[c];
            if (c + 1 < n && heap[c + 1] < ck) {
                ck = heap[++c];
            }
            if (ck >= k) {
                break;
            }
            heap[i] = ck;
            i = c;
        }
        heap[i] = k;
        return top;
    }
}
