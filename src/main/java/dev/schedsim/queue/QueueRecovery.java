package dev.schedsim.queue;

import dev.schedsim.DatabaseErrors;
import dev.schedsim.SchedsimProperties;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Gives back what dead workers left: at start-up, the runs a previous process of this instance left RUNNING (with
 * {@code requeue-all-on-startup}, every one; else those whose heartbeat is stale), and periodically on any live
 * instance the runs whose heartbeat is older than {@code schedsim.recovery.heartbeat-timeout}; rows written
 * before runs existed get their runs. After a database outage seen here the periodic requeue waits one heartbeat
 * timeout: every heartbeat is stale then because nobody could write one, not because the workers died.
 */
@Component
class QueueRecovery {
    private static final Logger log = LoggerFactory.getLogger(QueueRecovery.class);

    private final SimulationJobs simulations;
    private final SimulationRuns runs;
    private final SimulationPlans plans;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final SchedsimProperties properties;

    QueueRecovery(SimulationJobs simulations, SimulationRuns runs, SimulationPlans plans,
                  TransactionTemplate transactions, Clock clock, SchedsimProperties properties) {
        this.simulations = simulations;
        this.runs = runs;
        this.plans = plans;
        this.transactions = transactions;
        this.clock = clock;
        this.properties = properties;
    }

    /** Start-up recovery; returns the runs and the run-less simulation rows put back in the queue. */
    int recover() {
        SchedsimProperties.Recovery r = properties.recovery();
        Instant staleBefore = r.requeueAllOnStartup()
                ? clock.instant().plus(java.time.Duration.ofDays(3650)) : clock.instant().minus(r.heartbeatTimeout());
        return requeue(staleBefore);
    }

    private volatile Instant lastOutage = Instant.MIN;

    /** The database was found unavailable now (by the reaper or a worker). */
    void outage() {
        lastOutage = clock.instant();
    }

    /** Periodic: requeues runs whose worker died (heartbeat older than the timeout), on whatever instance. */
    int reap() {
        Instant now = clock.instant();
        java.time.Duration timeout = properties.recovery().heartbeatTimeout();
        if (lastOutage.isAfter(now.minus(timeout))) {
            return 0; // the workers' heartbeats resume once the database is back; give them a timeout to
        }
        return requeue(now.minus(timeout));
    }

    /** Simulations whose runs all ended but that nobody settled (see {@link SimulationCompletion#settle}). */
    List<String> unsettled(boolean startup) {
        boolean all = startup && properties.recovery().requeueAllOnStartup();
        return simulations.findUnsettled(all ? clock.instant().plus(java.time.Duration.ofDays(3650))
                : clock.instant().minus(properties.recovery().heartbeatTimeout()));
    }

    private int requeue(Instant staleBefore) {
        int n = runs.requeueStale(staleBefore);
        int m = simulations.requeueStale(staleBefore);
        int legacy = 0;
        for (String id : simulations.findUnfinishedWithoutRuns()) {
            legacy += ensureRuns(id) ? 1 : 0;
        }
        if (n + m > 0) {
            log.info("requeued {} run(s) and {} simulation(s) left RUNNING by a worker that is gone", n, m);
        }
        return n + legacy;
    }

    /** Rows written before runs existed (or by hand) get their runs; false when another instance was first. */
    private boolean ensureRuns(String id) {
        try {
            SimulationJob job = simulations.findById(id).orElse(null);
            if (job == null) {
                return false;
            }
            dev.schedsim.request.SimulationPlan plan = plans.of(job);
            transactions.executeWithoutResult(tx -> runs.createRuns(id, plan, job.getCreatedAt()));
            return true;
        } catch (DataIntegrityViolationException e) {
            return false;
        } catch (RuntimeException e) {
            if (DatabaseErrors.isOutage(e)) {
                throw e; // not the request's fault: try again on the next round
            }
            // An unreadable legacy request: fail it rather than retry it forever.
            log.warn("simulation {} cannot be planned: {}", id, e.toString());
            simulations.finish(id, SimulationStatus.FAILED, 0, Problems.json("simulation-failed",
                    "Simulation failed", 500, "the stored request can no longer be planned"), 0, clock.instant());
            return false;
        }
    }
}
