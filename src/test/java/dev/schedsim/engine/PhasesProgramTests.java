package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.engine.spec.WorkloadSpec.Event;
import dev.schedsim.engine.spec.WorkloadSpec.EventKind;
import dev.schedsim.engine.spec.WorkloadSpec.Phase;
import dev.schedsim.engine.spec.WorkloadSpec.Phases;
import dev.schedsim.engine.spec.WorkloadSpec.Timer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The phases program (rt-app's thread model), one test per event kind and loop level, on an otherwise idle
 * frictionless machine, each against what rt-app's documentation says the event does: run is an amount of work,
 * runtime a wall-clock time, sleep relative, timer absolute (its period holds whatever the thread ran), relative
 * timers restart their grid after a miss and absolute ones catch up, "unique" timers are per thread and others
 * shared by a task's instances, delay shifts the start and the timers' grid.
 */
class PhasesProgramTests {
    private static final double SLACK_US = WorkloadTests.SLACK_US;

    private static Event run(long us) {
        return new Event(EventKind.RUN, us, -1);
    }

    private static Event runtime(long us) {
        return new Event(EventKind.RUNTIME, us, -1);
    }

    private static Event sleep(long us) {
        return new Event(EventKind.SLEEP, us, -1);
    }

    private static Event timer(long periodUs, int index) {
        return new Event(EventKind.TIMER, periodUs, index);
    }

    private static Phases phases(int threads, int loop, long delayUs, List<Timer> timers, Phase... phases) {
        return new Phases(threads, List.of(phases), loop, delayUs, 0, timers);
    }

    private static Report alone(Phases k, long durationUs, WorkloadSpec... others) {
        return alone(WorkloadSpec.phases("t", "/", k), durationUs, others);
    }

    private static Report alone(WorkloadSpec t, long durationUs, WorkloadSpec... others) {
        List<WorkloadSpec> w = new java.util.ArrayList<>();
        w.add(t);
        w.addAll(List.of(others));
        return Specs.run(Specs.spec(Specs.frictionless(Specs.preset("validation-2c")), Specs.kernel("6.18"), List.of(),
                w, durationUs), 1);
    }

    @Test
    void runAndSleepRepeatAsTheLoopSays() {
        // 10 times run 1000, sleep 9000: 10 ms of CPU, done after 10 × (10 ms + slack), 10 phase iterations.
        Report r = alone(phases(1, 1, 0, List.of(), new Phase(10, List.of(run(1_000), sleep(9_000)))), 1_000_000);
        Report.WorkloadReport w = Specs.workload(r, "t");
        // (plus the kernel side of each wakeup and the cold wake out of idle: about 10 µs each)
        WorkloadTests.assertNear(10_000, w.cpuUsec(), 0.02, "cpuUsec");
        WorkloadTests.assertNear(10 * (10_000 + SLACK_US), w.completionUs(), 0.01,
                "completion: rt-app sleeps the last sleep too, then the thread ends");
        assertEquals(10.0, w.throughputPerSec() * r.simulatedUs() / 1e6, 0.01, "phase iterations");
    }

    @Test
    void theThreadLoopRepeatsEveryPhase() {
        Report r = alone(phases(2, 3, 0, List.of(), new Phase(2, List.of(run(1_000), sleep(1_000))),
                new Phase(1, List.of(run(4_000)))), 1_000_000);
        Report.WorkloadReport w = Specs.workload(r, "t");
        WorkloadTests.assertNear(2 * 3 * (2 * 1_000 + 4_000), w.cpuUsec(), 0.01, "two instances, three loops");
        assertEquals(2 * 3 * 3.0, w.throughputPerSec() * r.simulatedUs() / 1e6, 0.01, "phase iterations");
        assertTrue(w.completionUs() > 0);
    }

    @Test
    void runIsWorkAndRuntimeIsWallClock() {
        // On one CPU shared with a CPU hog, run 20000 needs 20 ms of CPU, runtime 20000 ends 20 ms after it began.
        WorkloadSpec hog = WorkloadSpec.cpuBound("hog", "/", 1, 0).withCpus(new int[] {0});
        Report work = alone(WorkloadSpec.phases("t", "/", phases(1, 1, 0, List.of(), new Phase(1,
                List.of(run(20_000))))).withCpus(new int[] {0}), 200_000, hog);
        Report wall = alone(WorkloadSpec.phases("t", "/", phases(1, 1, 0, List.of(), new Phase(1,
                List.of(runtime(20_000))))).withCpus(new int[] {0}), 200_000, hog);
        WorkloadTests.assertNear(20_000, Specs.workload(work, "t").cpuUsec(), 0.02, "run: its work");
        assertTrue(Specs.workload(work, "t").completionUs() > 35_000, "run waits for the hog: about 40 ms");
        assertTrue(Specs.workload(wall, "t").cpuUsec() < 14_000, "runtime: about half of 20 ms while sharing");
        WorkloadTests.assertNear(20_000, Specs.workload(wall, "t").completionUs(), 0.2, "runtime: 20 ms of wall");
    }

    @Test
    void aTimerKeepsItsPeriodWhereASleepAddsToTheRun() {
        // run 3000 then timer 10000: one iteration per 10 ms; run 3000 then sleep 10000: one per 13.05 ms.
        Report t = alone(phases(1, -1, 0, List.of(new Timer(true, false)), new Phase(1, List.of(run(3_000),
                timer(10_000, 0)))), 1_000_000);
        Report s = alone(phases(1, -1, 0, List.of(), new Phase(1, List.of(run(3_000), sleep(10_000)))), 1_000_000);
        WorkloadTests.assertNear(100, Specs.workload(t, "t").throughputPerSec(), 0.02, "timer: 100 per second");
        WorkloadTests.assertNear(1e6 / (13_000 + SLACK_US), Specs.workload(s, "t").throughputPerSec(), 0.02,
                "sleep: run + sleep per iteration");
    }

    @Test
    void aMissedExpiryRestartsARelativeTimerAndAnAbsoluteOneCatchesUp() {
        // run 25000 misses the 10 ms expiry; then 5 × (run 1000, timer 10000). Absolute: expiries stay at 20, 30,
        // ... 60 ms (20 is missed too): done at 60 ms. Relative: the grid restarts at 25 ms: 35 ... 75 ms.
        Phase late = new Phase(1, List.of(run(25_000), timer(10_000, 0)));
        Phase steady = new Phase(5, List.of(run(1_000), timer(10_000, 0)));
        Report abs = alone(phases(1, 1, 0, List.of(new Timer(true, true)), late, steady), 1_000_000);
        Report rel = alone(phases(1, 1, 0, List.of(new Timer(true, false)), late, steady), 1_000_000);
        WorkloadTests.assertNear(60_000 + SLACK_US, Specs.workload(abs, "t").completionUs(), 0.01, "absolute");
        WorkloadTests.assertNear(75_000 + SLACK_US, Specs.workload(rel, "t").completionUs(), 0.01, "relative");
    }

    @Test
    void aSharedTimerIsAdvancedByEveryInstanceAUniqueOneByItsOwn() {
        // Two instances of run 1000 + timer 10000: with one shared timer each use moves it 10 ms on, so the
        // instances take turns (50 iterations a second each); "unique" timers give each instance 100.
        Phase p = new Phase(1, List.of(run(1_000), timer(10_000, 0)));
        Report shared = alone(phases(2, -1, 0, List.of(new Timer(false, false)), p), 1_000_000);
        Report unique = alone(phases(2, -1, 0, List.of(new Timer(true, false)), p), 1_000_000);
        WorkloadTests.assertNear(100, Specs.workload(shared, "t").throughputPerSec(), 0.03, "shared: 100 in all");
        WorkloadTests.assertNear(200, Specs.workload(unique, "t").throughputPerSec(), 0.03, "unique: 100 each");
    }

    @Test
    void aDelayShiftsTheStartAndTheTimersGrid() {
        // delay 7000, then 3 × (run 1000, timer 10000): expiries at 17, 27, 37 ms.
        Report r = alone(phases(1, 1, 7_000, List.of(new Timer(true, true)), new Phase(3, List.of(run(1_000),
                timer(10_000, 0)))), 1_000_000);
        WorkloadTests.assertNear(37_000 + SLACK_US, Specs.workload(r, "t").completionUs(), 0.01, "completion");
        WorkloadTests.assertNear(3_000, Specs.workload(r, "t").cpuUsec(), 0.02, "cpuUsec (and three wakeups)");
    }

    @Test
    void theThreadsStopAtTheStopTime() {
        Phases k = new Phases(1, List.of(new Phase(1, List.of(run(1_000), sleep(1_000)))), -1, 0, 100_000,
                List.of());
        Report r = alone(k, 1_000_000);
        Report.WorkloadReport w = Specs.workload(r, "t");
        WorkloadTests.assertNear(100_000, w.completionUs(), 0.03, "exits at its first event after 100 ms");
        WorkloadTests.assertNear(50_000, w.cpuUsec(), 0.03, "half of it running");
    }
}
