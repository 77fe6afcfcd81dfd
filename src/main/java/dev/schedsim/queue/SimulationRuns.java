package dev.schedsim.queue;

import java.time.Instant;
import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/**
 * The run rows. As in {@link SimulationJobs}, each transition is a conditional update ({@code where status = …
 * and worker_id = …}) that happens at most once whatever the number of workers and instances.
 */
public interface SimulationRuns extends JpaRepository<SimulationRun, String> {

    List<SimulationRun> findBySimulationIdOrderByRunIndex(String simulationId);

    long countBySimulationIdAndStatusNot(String simulationId, SimulationStatus status);

    /** Runs in a state, over all simulations (the queue limit counts queued runs). */
    long countByStatus(SimulationStatus status);

    /**
     * The oldest queued runs, at most {@code limit}, read without a lock ({@link #lockQueued} then locks those
     * nobody holds). Not {@code FOR UPDATE SKIP LOCKED} here: H2 does not read a {@code FOR UPDATE} query's order
     * off an index, so it locked every queued row before it sorted them, and a concurrent claim found nothing and
     * its worker slept for a poll interval. Without the lock both H2 and PostgreSQL read the first rows off the
     * index simulation_run_claim_order (the order starts with the constant status for H2).
     */
    @Query(value = "select id from simulation_run where status = 'QUEUED' order by status, created_at, "
            + "simulation_id, run_index limit :limit", nativeQuery = true)
    List<String> nextQueued(@Param("limit") int limit);

    /** Of these runs, those still queued that nobody else holds, locked until the caller's transaction commits. */
    @Query(value = "select id from simulation_run where id in (:ids) and status = 'QUEUED' for update skip locked",
            nativeQuery = true)
    List<String> lockQueued(@Param("ids") List<String> ids);

    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.queue.SimulationStatus.RUNNING,
              r.startedAt = :now, r.heartbeatAt = :now, r.workerId = :worker, r.progress = 0, r.events = 0,
              r.attempts = r.attempts + 1
            where r.id in :ids and r.status = dev.schedsim.queue.SimulationStatus.QUEUED""")
    int markRunning(@Param("ids") List<String> ids, @Param("worker") String worker, @Param("now") Instant now);

    /** The heartbeat: 0 rows when the run was cancelled, failed elsewhere or requeued away from this worker. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.progress = :progress, r.heartbeatAt = :now, r.events = :events
            where r.id = :id and r.status = dev.schedsim.queue.SimulationStatus.RUNNING
              and r.workerId = :worker""")
    int heartbeat(@Param("id") String id, @Param("worker") String worker, @Param("progress") double progress,
                  @Param("events") long events, @Param("now") Instant now);

    /**
     * The heartbeat of runs a worker claimed in one batch and has not finished yet: 0 rows for those that were
     * cancelled or requeued away from it.
     */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.heartbeatAt = :now
            where r.id in :ids and r.status = dev.schedsim.queue.SimulationStatus.RUNNING
              and r.workerId = :worker""")
    int heartbeatHeld(@Param("ids") List<String> ids, @Param("worker") String worker, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = :outcome, r.startedAt = :startedAt, r.finishedAt = :now,
              r.heartbeatAt = :now, r.progress = :progress, r.events = :events, r.simulatedUs = :simulatedUs
            where r.id = :id and r.status = dev.schedsim.queue.SimulationStatus.RUNNING
              and r.workerId = :worker""")
    int finish(@Param("id") String id, @Param("worker") String worker, @Param("outcome") SimulationStatus outcome,
               @Param("progress") double progress, @Param("events") long events,
               @Param("simulatedUs") long simulatedUs, @Param("startedAt") Instant startedAt,
               @Param("now") Instant now);

    /** A run this worker gave up (shutdown) goes back to the queue. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.queue.SimulationStatus.QUEUED,
              r.startedAt = null, r.workerId = null, r.heartbeatAt = null, r.progress = 0, r.events = 0
            where r.id = :id and r.status = dev.schedsim.queue.SimulationStatus.RUNNING
              and r.workerId = :worker""")
    int requeueOwn(@Param("id") String id, @Param("worker") String worker);

    /** Runs whose worker died (heartbeat older than {@code staleBefore}) go back to QUEUED. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.queue.SimulationStatus.QUEUED,
              r.startedAt = null, r.workerId = null, r.heartbeatAt = null, r.progress = 0, r.events = 0
            where r.status = dev.schedsim.queue.SimulationStatus.RUNNING
              and (r.heartbeatAt is null or r.heartbeatAt < :staleBefore)""")
    int requeueStale(@Param("staleBefore") Instant staleBefore);

    /** Every unfinished run of a simulation that was cancelled or failed. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.queue.SimulationStatus.CANCELLED,
              r.finishedAt = :now
            where r.simulationId = :simulation and (r.status = dev.schedsim.queue.SimulationStatus.QUEUED
              or r.status = dev.schedsim.queue.SimulationStatus.RUNNING)""")
    int cancelAll(@Param("simulation") String simulationId, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("delete from SimulationRun r where r.simulationId = :simulation")
    int deleteAll(@Param("simulation") String simulationId);

    /** The run rows of a simulation planned as {@code plan}, queued (in the caller's transaction). */
    default void createRuns(String simulationId, dev.schedsim.request.SimulationPlan plan, Instant createdAt) {
        List<SimulationRun> rows = new java.util.ArrayList<>(plan.runs());
        for (int i = 0; i < plan.runs(); i++) {
            rows.add(new SimulationRun(simulationId, i, createdAt, plan.estimatedEvents(i / plan.repetitions())));
        }
        saveAllAndFlush(rows);
    }
}
