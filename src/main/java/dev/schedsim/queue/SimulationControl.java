package dev.schedsim.queue;

import dev.schedsim.http.StateConflictException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Component;

/** What a client does with a submitted simulation: look it up, list, read its result, cancel it, remove it. */
@Component
public class SimulationControl {
    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationResults results;
    private final SimulationQueue queue;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final Durability durability;

    SimulationControl(SimulationJobs simulations, SimulationRuns runs, SimulationResults results,
                      SimulationQueue queue, ApplicationEventPublisher events, Clock clock, Durability durability) {
        this.simulations = simulations;
        this.runs = runs;
        this.results = results;
        this.queue = queue;
        this.events = events;
        this.clock = clock;
        this.durability = durability;
    }

    public Optional<SimulationJob> find(String id) {
        return simulations.findById(id);
    }

    /** The result document of a job, looked up only once it SUCCEEDED; null before or when it did not. */
    public String result(SimulationJob job) {
        return job.getStatus() == SimulationStatus.SUCCEEDED ? results.findResultJson(job.getId()).orElse(null)
                : null;
    }

    /** Newest first; {@code owner} null lists everyone's, else that client's only. */
    public Page<SimulationJob> search(SimulationStatus status, String name, String owner, int page, int size) {
        return simulations.search(status, name, owner, PageRequest.of(page, size));
    }

    public long count(SimulationStatus status) {
        return simulations.countByStatus(status);
    }

    /**
     * Cancels a queued or running job (a running one stops at its next engine check). Cancelling a cancelled job
     * again is a no-op; a succeeded or failed one is a conflict.
     */
    public Optional<SimulationJob> cancel(String id) {
        Optional<SimulationJob> job = simulations.findById(id);
        if (job.isEmpty()) {
            return job;
        }
        Instant now = clock.instant();
        if (simulations.cancel(id, now) == 0) {
            SimulationJob current = simulations.findById(id).orElse(null);
            if (current == null) {
                return Optional.empty();
            }
            if (current.getStatus() != SimulationStatus.CANCELLED) {
                throw new StateConflictException("simulation " + id + " already " + current.getStatus());
            }
            return Optional.of(current);
        }
        // Runs running here stop at their next engine check; those on other instances at their next heartbeat.
        runs.cancelAll(id, now);
        durability.flush();
        queue.cancelRunning(id);
        // A concurrent DELETE may remove the row as soon as it is CANCELLED: the cancel still took effect, and
        // the answer says so (it was 404).
        Optional<SimulationJob> cancelled = Optional.of(simulations.findById(id)
                .orElseGet(() -> SimulationJob.cancelledCopy(job.get(), now)));
        cancelled.ifPresent(j -> events.publishEvent(new SimulationFinished(id, j.label(),
                SimulationStatus.CANCELLED, java.time.Duration.between(
                        j.getStartedAt() != null ? j.getStartedAt() : j.getCreatedAt(), now),
                j.getEvents(), 0, null)));
        return cancelled;
    }

    /** Removes a finished job; false when unknown; a conflict while it is queued or running. */
    public boolean delete(String id) {
        Optional<SimulationJob> job = simulations.findById(id);
        if (job.isEmpty()) {
            return false;
        }
        int deleted = simulations.deleteFinished(id);
        durability.flush();
        if (deleted == 0) {
            if (simulations.existsById(id)) {
                throw new StateConflictException("simulation " + id + " is " + simulations.findById(id)
                        .map(SimulationJob::getStatus).orElse(SimulationStatus.QUEUED)
                        + "; cancel it before deleting it");
            }
            return false;
        }
        return true;
    }
}
