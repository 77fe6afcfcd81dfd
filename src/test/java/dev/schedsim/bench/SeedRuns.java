package dev.schedsim.bench;

import dev.schedsim.engine.api.Report;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * A seed table's runs on every core: a row's variants and seeds are independent simulations (each deterministic for
 * its seed, sharing no state), so they run side by side and the row's figures are the same as one after another.
 * {@code -Dthreads=N} sets the number of runs at once (default: the cores the JVM sees).
 */
final class SeedRuns {
    private static final int THREADS = Integer.getInteger("threads", Runtime.getRuntime().availableProcessors());

    private SeedRuns() {
    }

    /** Runs {@code run.apply(i)} for i in [0, n) on up to THREADS cores; the reports in the order of i. */
    static Report[] all(int n, IntFunction<Report> run) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(THREADS, n)));
        try {
            List<Future<Report>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                futures.add(pool.submit(() -> run.apply(k)));
            }
            Report[] out = new Report[n];
            for (int i = 0; i < n; i++) {
                out[i] = futures.get(i).get();
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a run failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
