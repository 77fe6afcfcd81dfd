package dev.schedsim.simulation;

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

    long countBySimulationIdAndStatus(String simulationId, SimulationStatus status);

    /**
     * The oldest queued run nobody else holds; the caller's transaction keeps the row lock until it commits. (The
     * order starts with the constant status so that H2 reads it off the index simulation_run_claim_order instead
     * of sorting every queued run.)
     */
    @Query(value = "select id from simulation_run where status = 'QUEUED' order by status, created_at, "
            + "simulation_id, run_index limit 1 for update skip locked", nativeQuery = true)
    List<String> lockNextQueued();

    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.simulation.SimulationStatus.RUNNING,
              r.startedAt = :now, r.heartbeatAt = :now, r.workerId = :worker, r.progress = 0, r.events = 0,
              r.attempts = r.attempts + 1
            where r.id = :id and r.status = dev.schedsim.simulation.SimulationStatus.QUEUED""")
    int markRunning(@Param("id") String id, @Param("worker") String worker, @Param("now") Instant now);

    /** The heartbeat: 0 rows when the run was cancelled, failed elsewhere or requeued away from this worker. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.progress = :progress, r.heartbeatAt = :now, r.events = :events
            where r.id = :id and r.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and r.workerId = :worker""")
    int heartbeat(@Param("id") String id, @Param("worker") String worker, @Param("progress") double progress,
                  @Param("events") long events, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = :outcome, r.finishedAt = :now, r.heartbeatAt = :now,
              r.progress = :progress, r.events = :events, r.simulatedUs = :simulatedUs
            where r.id = :id and r.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and r.workerId = :worker""")
    int finish(@Param("id") String id, @Param("worker") String worker, @Param("outcome") SimulationStatus outcome,
               @Param("progress") double progress, @Param("events") long events,
               @Param("simulatedUs") long simulatedUs, @Param("now") Instant now);

    /** A run this worker gave up (shutdown) goes back to the queue. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.simulation.SimulationStatus.QUEUED,
              r.startedAt = null, r.workerId = null, r.heartbeatAt = null, r.progress = 0, r.events = 0
            where r.id = :id and r.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and r.workerId = :worker""")
    int requeueOwn(@Param("id") String id, @Param("worker") String worker);

    /** Runs whose worker died (heartbeat older than {@code staleBefore}) go back to QUEUED. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.simulation.SimulationStatus.QUEUED,
              r.startedAt = null, r.workerId = null, r.heartbeatAt = null, r.progress = 0, r.events = 0
            where r.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and (r.heartbeatAt is null or r.heartbeatAt < :staleBefore)""")
    int requeueStale(@Param("staleBefore") Instant staleBefore);

    /** Every unfinished run of a simulation that was cancelled or failed. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationRun r set r.status = dev.schedsim.simulation.SimulationStatus.CANCELLED,
              r.finishedAt = :now
            where r.simulationId = :simulation and (r.status = dev.schedsim.simulation.SimulationStatus.QUEUED
              or r.status = dev.schedsim.simulation.SimulationStatus.RUNNING)""")
    int cancelAll(@Param("simulation") String simulationId, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("delete from SimulationRun r where r.simulationId = :simulation")
    int deleteAll(@Param("simulation") String simulationId);
}
