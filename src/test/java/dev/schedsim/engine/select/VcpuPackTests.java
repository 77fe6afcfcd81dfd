package dev.schedsim.engine.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.Specs;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * VCPU_PACK (the validation machine's guest kernel, not mainline): a wakeup whose previous CPU is busy goes back to
 * it while that CPU has room (one other runnable task, utilisation with the wakee under 70 %), where mainline's
 * select_idle_sibling() takes the idle CPU; a CPU without room leaves the wakeup to mainline.
 */
class VcpuPackTests {

    /**
     * Migrations in 2 s of three periodic threads on validation-2c, with and without packing, over four seeds: three
     * identical threads on a quiet machine lock into one phase or another that a microsecond of cost changes, so the
     * machine's noise and several seeds stand for the many phases of a real run.
     */
    private static long migrations(boolean pack, long runUs, long sleepUs) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.VCPU_PACK, pack);
        EngineSpec s = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18", 250, f), List.of(),
                List.of(WorkloadSpec.periodic("p", "/", 3, runUs, sleepUs)), 2_000_000);
        long sum = 0;
        for (long seed = 1; seed <= 4; seed++) {
            sum += Specs.run(s, seed).workloads().get(0).migrations();
        }
        return sum;
    }

    @Test
    void aWakeupStaysOnItsBusyPreviousCpuWhileItHasRoom() {
        // Three threads of 10 % each on two CPUs: a thread often wakes while another runs on its CPU and the other
        // CPU is idle. Mainline moves it there; packing keeps it (utilisation about 20 %, one runnable task).
        long m = migrations(false, 300, 2_700);
        long p = migrations(true, 300, 2_700);
        assertTrue(m > 200, "mainline moves woken threads to the idle CPU: " + m + " migrations");
        // (what moves with packing is load balance pulling a waiting thread to the idle CPU)
        assertTrue(p < m / 3, "packing keeps them where they slept: " + m + " -> " + p + " migrations");
    }

    @Test
    void aBusyCpuWithoutRoomLeavesTheWakeupToMainline() {
        // Three threads of 80 %: a thread wakes while another runs on its previous CPU, whose utilisation (the running
        // thread's and the wakee's own, still counted there while it sleeps) is well above 70 %; packing finds no
        // room and the wakeup goes where mainline's does.
        long m = migrations(false, 2_400, 600);
        long p = migrations(true, 2_400, 600);
        assertTrue(m > 1000, "mainline migrations " + m);
        assertEquals(m, p, m * 0.05, "migrations with and without packing");
    }
}
