package dev.schedsim.engine.pelt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A migrating task takes its averages along (remove_entity_load_avg() on the old cfs_rq, attach_entity_load_avg()
 * on the new one): the CPUs' sums change at the move by the task's averages, not over the 32 ms half-life after it.
 */
class PeltMigrationTests {

    private static final long MS = 1_000_000L;

    @Test
    void aMovedTasksAveragesLeaveOneCpuAndJoinTheOtherAtOnce() {
        // Two CPUs with two always-running tasks' worth of load each for 200 ms (close to steady state), and one
        // of those tasks' own signal.
        Pelt src = new Pelt();
        Pelt dst = new Pelt();
        Pelt task = new Pelt();
        for (long t = MS; t <= 200 * MS; t += MS) {
            src.update(t, 2048, 2, true);
            dst.update(t, 2048, 2, true);
            task.update(t, 1024, 1, t % (2 * MS) == 0);
        }
        long before = src.loadAvg();
        long moved = task.loadAvg();
        assertTrue(moved > 900 && moved <= 1024, "the task's load " + moved);
        src.detach(task.loadAvg(), task.runnableAvg(), task.utilAvg());
        dst.attach(task.loadAvg(), task.runnableAvg(), task.utilAvg());
        assertEquals(before - moved, src.loadAvg(), 1, "the old CPU's load");
        assertEquals(before + moved, dst.loadAvg(), 1, "the new CPU's load");
        assertEquals(2 * before, src.loadAvg() + dst.loadAvg(), 2, "the load is moved, not made");
        // Removing more than is there leaves nothing, never less (sub_positive()).
        src.detach(10 * before, 0, 0);
        assertEquals(0, src.loadAvg());
    }
}
