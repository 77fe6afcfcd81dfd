package dev.schedsim.engine;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Many independent runs (a table's variants and repetitions, an advice's candidates run in-process) on several
 * cores at once. One run is one event loop and stays on one thread: a discrete-event run is sequential, so the
 * cores are used across runs, not inside one. Each of {@code threads} threads takes the next run not yet taken
 * (so a long run does not hold back the short ones behind it) and the reports come back in the runs' order.
 *
 * <p>Deterministic: a run depends only on its spec and seed (every generator is seeded from it, the engine keeps
 * no state between runs), so the reports are identical to running the same list one after another, whatever the
 * threads and their timing (EngineRunsTests).
 *
 * <p>The service does not call this: its queue's workers ({@code schedsim.workers}, one per core by default) already
 * are the parallelism, each running one claimed batch of runs at a time; this is for callers without the queue.
 */
public final class EngineRuns {
    private EngineRuns() {
    }

    /** One run: a spec and its seed. */
    public record Run(EngineSpec spec, long seed) {
    }

    /** The threads to use by default: one per core the JVM may use. */
    public static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * Runs every run, {@code threads} at a time, and returns their reports in the runs' order. The first failure
     * (a {@link BudgetExceededException}, say) is thrown once the running runs have ended; runs not started by
     * then are not started.
     */
    public static List<Report> runAll(List<Run> runs, int threads, long eventBudget) {
        int n = runs.size();
        Report[] reports = new Report[n];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable worker = () -> {
            int i;
            while (failure.get() == null && (i = next.getAndIncrement()) < n) {
                try {
                    Run r = runs.get(i);
                    reports[i] = Engine.run(r.spec(), r.seed(), eventBudget, RunControl.NONE);
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                }
            }
        };
        int t = Math.max(1, Math.min(threads, n));
        List<Thread> started = new ArrayList<>(t - 1);
        for (int k = 1; k < t; k++) {
            Thread th = new Thread(worker, "engine-run-" + k);
            th.setDaemon(true);
            th.start();
            started.add(th);
        }
        worker.run(); // (the caller's thread is one of them)
        boolean interrupted = false;
        for (Thread th : started) {
            while (true) {
                try {
                    th.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // (the runs cannot be stopped halfway: wait, then say so)
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable f = failure.get();
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error er) {
            throw er;
        }
        return List.of(reports);
    }
}
