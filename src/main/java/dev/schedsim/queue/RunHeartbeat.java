package dev.schedsim.queue;

import dev.schedsim.DatabaseErrors;
import dev.schedsim.engine.api.RunControl;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine hook of one claimed run. The engine calls {@link #cancelled()} every few thousand events; at most
 * every {@code intervalMs} (default 500 ms) it writes the run's progress and heartbeat with a conditional update,
 * which finds no row when the run was cancelled (on any instance), failed with its simulation, or was requeued
 * away from this worker after a missed heartbeat; the run then stops. So a cancel reaches a running engine on
 * any instance within about {@code intervalMs}. The simulation row's progress (mean of its runs) is refreshed
 * with each heartbeat, and so is the heartbeat of the other runs the worker holds in the same batch ({@code held}:
 * claimed and not started, or finished and not stored yet), so that no reaper requeues them while it works. A
 * heartbeat the database is not there to take is skipped ({@link DatabaseOutage}), never the run's failure.
 */
final class RunHeartbeat implements RunControl {
    private static final Logger log = LoggerFactory.getLogger(RunHeartbeat.class);

    private final SimulationRuns runs;
    private final SimulationJobs simulations;
    private final String runId;
    private final String simulationId;
    private final String worker;
    private final Clock clock;
    private final long intervalMs;
    private final AtomicBoolean cancelled;
    private final BooleanSupplier stopping;
    private final long durationUs;
    private final Supplier<List<String>> held;
    private long simulatedUs;
    private long events;
    private long lastWriteMs;
    private boolean outageLogged;

    RunHeartbeat(SimulationRuns runs, SimulationJobs simulations, String runId, String simulationId, String worker,
                 Clock clock, long intervalMs, AtomicBoolean cancelled, BooleanSupplier stopping, long durationUs,
                 Supplier<List<String>> held) {
        this.held = held;
        this.runs = runs;
        this.simulations = simulations;
        this.runId = runId;
        this.simulationId = simulationId;
        this.worker = worker;
        this.clock = clock;
        this.intervalMs = intervalMs;
        this.cancelled = cancelled;
        this.stopping = stopping;
        this.durationUs = durationUs;
        this.lastWriteMs = clock.millis();
    }

    long events() {
        return events;
    }

    double fraction() {
        return durationUs <= 0 ? 0 : Math.min(1.0, (double) simulatedUs / durationUs);
    }

    @Override
    public boolean cancelled() {
        if (cancelled.get() || stopping.getAsBoolean()) {
            return true;
        }
        long now = clock.millis();
        if (now - lastWriteMs >= intervalMs) {
            lastWriteMs = now;
            try {
                beat();
            } catch (RuntimeException e) {
                if (!DatabaseErrors.isOutage(e)) {
                    throw e;
                }
                // The database is away: the engine goes on and the next interval tries again. (Away longer than
                // the heartbeat timeout, another instance may requeue the run; the next beat then finds no row.)
                if (!outageLogged) {
                    log.warn("run {}: heartbeat not written, the database is unavailable ({})", runId,
                            DatabaseErrors.rootMessage(e));
                    outageLogged = true;
                }
                return cancelled.get();
            }
            outageLogged = false;
        }
        return cancelled.get();
    }

    private void beat() {
        Instant at = clock.instant();
        if (runs.heartbeat(runId, worker, fraction(), events, at) == 0) {
            cancelled.set(true);
        } else {
            List<String> others = held.get();
            if (!others.isEmpty()) {
                runs.heartbeatHeld(others, worker, at);
            }
            simulations.aggregate(simulationId, at);
        }
    }

    @Override
    public void progress(long simulatedUs, long events) {
        this.simulatedUs = simulatedUs;
        this.events = events;
    }
}
