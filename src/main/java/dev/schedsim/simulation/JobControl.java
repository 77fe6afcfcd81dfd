package dev.schedsim.simulation;

import dev.schedsim.engine.RunControl;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * The engine hook of one job: reports progress over all its runs to the row (at most every
 * {@code progressInterval}, which doubles as the heartbeat) and stops the run when the job was cancelled here
 * (flag), elsewhere (the conditional progress update finds the row no longer RUNNING for this worker) or the
 * service is shutting down.
 */
final class JobControl implements RunControl {
    private final SimulationJobs simulations;
    private final String id;
    private final String worker;
    private final Clock clock;
    private final long intervalMs;
    private final AtomicBoolean cancelled;
    private final BooleanSupplier stopping;
    private final int runs;
    private int run;
    private long durationUs;
    private long simulatedUs;
    private long runEvents;
    private long doneEvents;
    private long lastWriteMs;

    JobControl(SimulationJobs simulations, String id, String worker, Clock clock, long intervalMs,
               AtomicBoolean cancelled, BooleanSupplier stopping, int runs) {
        this.simulations = simulations;
        this.id = id;
        this.worker = worker;
        this.clock = clock;
        this.intervalMs = intervalMs;
        this.cancelled = cancelled;
        this.stopping = stopping;
        this.runs = runs;
        this.lastWriteMs = clock.millis();
    }

    /** Starts run {@code index} (0-based) of a spec simulating {@code durationUs}. */
    void startRun(int index, long durationUs) {
        this.run = index;
        this.durationUs = durationUs;
        this.simulatedUs = 0;
        this.runEvents = 0;
    }

    /** Ends the current run with its final event count. */
    void endRun(long events) {
        doneEvents += events;
        runEvents = 0;
        simulatedUs = durationUs;
    }

    long events() {
        return doneEvents + runEvents;
    }

    double fraction() {
        double within = durationUs <= 0 ? 0 : Math.min(1.0, (double) simulatedUs / durationUs);
        return Math.min(1.0, (run + within) / runs);
    }

    @Override
    public boolean cancelled() {
        if (cancelled.get() || stopping.getAsBoolean()) {
            return true;
        }
        long now = clock.millis();
        if (now - lastWriteMs >= intervalMs) {
            lastWriteMs = now;
            if (simulations.updateProgress(id, worker, fraction(), events(), clock.instant()) == 0) {
                cancelled.set(true);
            }
        }
        return cancelled.get();
    }

    @Override
    public void progress(long simulatedUs, long events) {
        this.simulatedUs = simulatedUs;
        this.runEvents = events;
    }
}
