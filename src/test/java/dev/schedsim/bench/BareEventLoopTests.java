package dev.schedsim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bare loop that the engine's speed is measured against does what it says (its speed is the benchmark's). */
class BareEventLoopTests {
    @Test
    void keepsItsHeapFullAndIsDeterministic() {
        BareEventLoop a = new BareEventLoop(4096);
        BareEventLoop b = new BareEventLoop(4096);
        long lastA = a.run(100_000);
        assertEquals(4096, a.size());
        assertEquals(lastA, b.run(100_000));
    }

    @Test
    void takesEventsInTimeOrder() {
        BareEventLoop loop = new BareEventLoop(64);
        long previous = loop.run(1);
        for (int i = 0; i < 10_000; i++) {
            long next = loop.run(1);
            // (key = time << 16 | slot: a later key is a later time, or the same time and a later slot)
            assertTrue(next >= previous, "event " + i + " came before the one taken out before it");
            previous = next;
        }
    }
}
