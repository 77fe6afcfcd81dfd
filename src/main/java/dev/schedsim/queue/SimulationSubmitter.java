package dev.schedsim.queue;

import dev.schedsim.SchedsimProperties;
import dev.schedsim.http.IdempotencyConflictException;
import dev.schedsim.http.QueueFullException;
import dev.schedsim.request.SimulationPlan;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Puts an accepted request in the queue: its simulation row and one run row per variant × repetition, in one
 * transaction, written to disk before the client is answered; a reused idempotency key with the same body returns
 * the simulation it made.
 */
@Component
public class SimulationSubmitter {
    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationPlans plans;
    private final SimulationQueue queue;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final SchedsimProperties properties;
    private final Durability durability;
    private final Admission admission;

    SimulationSubmitter(SimulationJobs simulations, SimulationRuns runs, SimulationPlans plans,
                        SimulationQueue queue, TransactionTemplate transactions, Clock clock,
                        SchedsimProperties properties, Durability durability, Admission admission) {
        this.admission = admission;
        this.simulations = simulations;
        this.runs = runs;
        this.plans = plans;
        this.queue = queue;
        this.transactions = transactions;
        this.clock = clock;
        this.properties = properties;
        this.durability = durability;
    }

    /** What a submission did. */
    public record Submission(SimulationJob job, boolean created) {
    }

    /**
     * Queues an accepted request with its plan, stored together; with an idempotency key already used for the
     * same body (same hash) by the same client, returns that job instead.
     *
     * @param owner the submitting client (null when security is off)
     */
    public Submission submit(String name, String requestJson, SimulationPlan plan, String requestHash,
                             String idempotencyKey, String owner) {
        if (idempotencyKey != null) {
            Optional<SimulationJob> previous = simulations.findByIdempotencyKey(idempotencyKey);
            if (previous.isPresent()) {
                return replay(previous.get(), requestHash, idempotencyKey, owner);
            }
        }
        int n = plan.runs();
        String storedPlan = SimulationPlans.encoded(plan);
        try {
            // The client's own limits first (429), so that one client cannot take the queue from everyone; checked
            // and written in one transaction with the client's lock held, so that a burst of its submissions is
            // admitted one by one. The global limit stays the last guard (503).
            Submission s = new Submission(admission.exclusive(owner, () -> transactions.execute(tx -> {
                admission.admit(owner, n, plan.estimatedEvents());
                // The limit counts runs, the queue's real work: one request of 16 variants x 20 repetitions is 320
                // of them. An empty queue admits any simulation, so one larger than the limit is not refused for
                // ever.
                long queued = runs.countByStatus(SimulationStatus.QUEUED);
                if (queued > 0 && queued + n > properties.maxQueued()) {
                    throw new QueueFullException(properties.maxQueued(), queued, n);
                }
                // (its creation time after the lock: the next admission's per-minute count sees it in order)
                SimulationJob saved = simulations.saveAndFlush(new SimulationJob(UUID.randomUUID().toString(), name,
                        clock.instant(), requestJson, requestHash, idempotencyKey, owner));
                plans.save(saved.getId(), plan, storedPlan);
                runs.createRuns(saved.getId(), plan, saved.getCreatedAt());
                return saved;
            })), true);
            durability.flush();
            queue.wake(n);
            return s;
        } catch (DataIntegrityViolationException e) {
            // A concurrent submission with the same key won the unique index.
            SimulationJob other = simulations.findByIdempotencyKey(idempotencyKey).orElseThrow(() -> e);
            return replay(other, requestHash, idempotencyKey, owner);
        }
    }

    private Submission replay(SimulationJob job, String requestHash, String key, String owner) {
        // Another client's key is a conflict too: a replay must not hand one client another's simulation.
        if (!job.getRequestHash().equals(requestHash) || !java.util.Objects.equals(job.getOwner(), owner)) {
            throw new IdempotencyConflictException(key);
        }
        return new Submission(job, false);
    }
}
