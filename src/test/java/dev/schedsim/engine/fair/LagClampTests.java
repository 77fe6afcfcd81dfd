package dev.schedsim.engine.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import java.util.EnumMap;
import org.junit.jupiter.api.Test;

/**
 * update_entity_lag()'s bound at HZ 250 with the 6.15+ base slice of 0.7 ms: 6.6-6.17 allow two slices or a tick
 * (4 ms of a nice-0 entity's time), 6.18.44 — with "sched/fair: Fix lag clamp" — the queue's longest slice plus a
 * tick (4.7 ms); an entity of half the weight runs its virtual time twice as fast, so twice that.
 */
class LagClampTests {
    private static final long MS = 1_000_000L;

    private static long bound(String profile, long weight) {
        KernelConfig k = KernelConfig.of(KernelProfiles.byName(profile), 250, new EnumMap<>(Feature.class), 5000);
        Entity se = new Entity(null, null, weight);
        se.slice = 700_000L;
        return FairQueue.lagLimit(se, weight, k.tickNs(), k.on(Feature.LAG_CLAMP_MAX_SLICE));
    }

    @Test
    void twoSlicesOrATickBefore() {
        assertEquals(4 * MS, bound("6.6", 1024));
    }

    @Test
    void theLongestSlicePlusATickIn6_18() {
        assertEquals(4_700_000L, bound("6.18", 1024));
        assertEquals(9_400_000L, bound("6.18", 512));
    }
}
