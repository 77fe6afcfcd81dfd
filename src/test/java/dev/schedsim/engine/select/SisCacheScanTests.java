package dev.schedsim.engine.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.KernelProfiles;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * select_idle_cpu() with SIS_CACHE as the seed's v2 has it ("[PATCH v2 3/3] sched/fair: skip the cache hot CPU in
 * select_idle_cpu()"): cache-hot idle CPUs are passed over for {@code nr_hot = nr >> 1} idle candidates, then the
 * next one is taken hot or not; a depth that runs out sends the wakee to the target. One LLC of 8 CPUs without SMT,
 * the waker (and the wakee's previous CPU) busy on CPU 0; the scan starts at CPU 1.
 */
class SisCacheScanTests {
    private final OneLlc m = new OneLlc();

    private SelectIdleSibling select(boolean sisCache) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.SIS_CACHE, sisCache);
        SelectIdleSibling s = m.select(KernelConfig.of(KernelProfiles.byName("6.18"), 250, f, 5000));
        m.cpus[0].nrRunning = 1; // the waker runs there
        m.clock.now = 1_000_000;
        return s;
    }

    /** CPUs 1-6 idle and cache-hot for a recent short sleeper, CPU 7 idle and cold. */
    private void hotUpTo6() {
        for (int c = 1; c <= 6; c++) {
            m.cpus[c].cacheHotTimeout = m.clock.now + 100_000;
        }
    }

    @Test
    void passesOverHalfTheDepthOfHotCpusThenTakesTheNext() {
        SelectIdleSibling s = select(true);
        hotUpTo6();
        m.shared.nrIdleScan[0] = 7; // nr 8, nr_hot 4: CPUs 1-4 passed over, CPU 5 taken though hot
        assertThat(s.selectIdleSibling(m.wakee, 0, 0, 0)).isEqualTo(5);
    }

    @Test
    void aDepthThatRunsOutSendsTheWakeeToTheTarget() {
        SelectIdleSibling s = select(true);
        hotUpTo6();
        m.cpus[1].nrRunning = 1;
        m.cpus[2].nrRunning = 1;
        m.shared.nrIdleScan[0] = 3; // nr 4: CPUs 1 and 2 busy, 3 hot and passed over (nr_hot 2), then the depth is out
        assertThat(s.selectIdleSibling(m.wakee, 0, 0, 0)).isEqualTo(0);
    }

    @Test
    void withoutSisCacheTheFirstIdleCpuIsTaken() {
        SelectIdleSibling s = select(false);
        hotUpTo6();
        m.shared.nrIdleScan[0] = 7;
        assertThat(s.selectIdleSibling(m.wakee, 0, 0, 0)).isEqualTo(1);
    }
}
