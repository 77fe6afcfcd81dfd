package dev.schedsim.engine.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.Specs;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NI_RANDOM (33cf66d88306, 6.19 and 6.18.5+): sched_balance_newidle() throws a 1024-sided die per domain and
 * balances only when it falls within the domain's recent success rate, so where newidle balance mostly fails it
 * mostly does not run. The avg_idle gate in front of it does not change.
 */
class NewidleRandomTests {

    private static Report run(boolean niRandom, long seed) {
        Map<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.NI_RANDOM, niRandom);
        // Eight 200/800 µs threads on two CPUs with the machine noise (the latency suite's eight-short: without
        // the noise the threads run in lock-step and hardly move): a CPU goes idle about 4 000
        // times a second, and about one newidle balance in three finds a waiting task on the other CPU.
        EngineSpec s = Specs.spec(Specs.noisy("validation-2c"), Specs.kernel("6.18", 250, f), List.of(),
                List.of(WorkloadSpec.periodic("p", "/", 8, 200, 800)), 2_000_000);
        return Specs.run(s, seed);
    }

    @Test
    void newidleBalanceRunsInProportionToItsSuccess() {
        Report off = run(false, 1);
        Report on = run(true, 1);
        Report.SchedulerReport a = off.scheduler();
        Report.SchedulerReport b = on.scheduler();
        // The same CPUs pass the avg_idle gate about as often ...
        assertEquals(a.newidleBalances(), b.newidleBalances(), a.newidleBalances() * 0.25,
                "newidle balances past the gate");
        // ... but with a success rate of about a third, two balances in three are skipped, and with them their pulls.
        assertTrue(b.tasksMoved() < 0.6 * a.tasksMoved(), "tasks moved " + a.tasksMoved() + " -> " + b.tasksMoved());
        assertTrue(b.tasksMoved() > 0.1 * a.tasksMoved(), "tasks moved " + a.tasksMoved() + " -> " + b.tasksMoved());
        assertTrue(b.migrations() < a.migrations(), "migrations " + a.migrations() + " -> " + b.migrations());
    }

    @Test
    void everyMigrationIsAWakeupsOrABalancesAndTheNewidlePullsAreCounted() {
        // The report splits migrations by path, as the kernel's schedstats do (nr_wakeups_migrate, lb_gained by idle
        // type): at wakeup, or moved by a balance (tasksMoved), of which newidlePulls by newidle balance.
        for (boolean niRandom : new boolean[] {false, true}) {
            Report.SchedulerReport s = run(niRandom, 1).scheduler();
            assertEquals(s.migrations(), s.wakeupMigrations() + s.tasksMoved(), "migrations " + s);
            assertTrue(s.wakeupMigrations() > 0, "wakeup migrations " + s.wakeupMigrations());
            // (here most balance moves are newidle pulls: a CPU runs dry about 4 000 times a second)
            assertTrue(s.newidlePulls() > s.tasksMoved() / 2 && s.newidlePulls() <= s.tasksMoved(),
                    "newidle pulls " + s.newidlePulls() + " of " + s.tasksMoved());
        }
    }

    @Test
    void theDieIsSeededFromTheRun() {
        assertEquals(run(true, 7), run(true, 7));
    }
}
