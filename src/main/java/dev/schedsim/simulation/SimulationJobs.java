package dev.schedsim.simulation;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/**
 * The job rows. Every state transition is a conditional update ({@code … where status = …}) so that it happens
 * at most once whatever the number of workers and instances; callers check the returned row count.
 */
public interface SimulationJobs extends JpaRepository<SimulationJob, String> {

    Optional<SimulationJob> findByIdempotencyKey(String idempotencyKey);

    @Query("""
            select j from SimulationJob j
            where (:status is null or j.status = :status) and (:name is null or j.name = :name)
            order by j.createdAt desc, j.id desc""")
    Page<SimulationJob> search(@Param("status") SimulationStatus status, @Param("name") String name,
                               Pageable pageable);

    long countByStatus(SimulationStatus status);

    /** The oldest queued row nobody else holds; the caller's transaction keeps the row lock until it commits. */
    @Query(value = "select id from simulation where status = 'QUEUED' order by created_at, id limit 1 "
            + "for update skip locked", nativeQuery = true)
    List<String> lockNextQueued();

    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = dev.schedsim.simulation.SimulationStatus.RUNNING,
              j.startedAt = :now, j.heartbeatAt = :now, j.workerId = :worker, j.progress = 0
            where j.id = :id and j.status = dev.schedsim.simulation.SimulationStatus.QUEUED""")
    int markRunning(@Param("id") String id, @Param("worker") String worker, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.progress = :progress, j.heartbeatAt = :now, j.events = :events
            where j.id = :id and j.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and j.workerId = :worker""")
    int updateProgress(@Param("id") String id, @Param("worker") String worker, @Param("progress") double progress,
                       @Param("events") long events, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = :outcome, j.finishedAt = :now, j.progress = :progress,
              j.resultJson = :result, j.errorJson = :error, j.events = :events, j.heartbeatAt = :now
            where j.id = :id and j.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and j.workerId = :worker""")
    int finish(@Param("id") String id, @Param("worker") String worker, @Param("outcome") SimulationStatus outcome,
               @Param("progress") double progress, @Param("result") String result, @Param("error") String error,
               @Param("events") long events, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = dev.schedsim.simulation.SimulationStatus.CANCELLED,
              j.finishedAt = :now
            where j.id = :id and (j.status = dev.schedsim.simulation.SimulationStatus.QUEUED
              or j.status = dev.schedsim.simulation.SimulationStatus.RUNNING)""")
    int cancel(@Param("id") String id, @Param("now") Instant now);

    /** Rows left RUNNING by a process that is gone (heartbeat older than {@code staleBefore}) go back to QUEUED. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = dev.schedsim.simulation.SimulationStatus.QUEUED,
              j.startedAt = null, j.workerId = null, j.heartbeatAt = null, j.progress = 0, j.events = 0
            where j.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and (j.heartbeatAt is null or j.heartbeatAt < :staleBefore)""")
    int requeueStale(@Param("staleBefore") Instant staleBefore);

    @Transactional
    @Modifying
    @Query("""
            delete from SimulationJob j where j.id = :id
            and j.status in (dev.schedsim.simulation.SimulationStatus.SUCCEEDED,
              dev.schedsim.simulation.SimulationStatus.FAILED, dev.schedsim.simulation.SimulationStatus.CANCELLED)""")
    int deleteFinished(@Param("id") String id);

    /** A row this worker gave up (shutdown) goes back to the queue. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = dev.schedsim.simulation.SimulationStatus.QUEUED,
              j.startedAt = null, j.workerId = null, j.heartbeatAt = null, j.progress = 0, j.events = 0
            where j.id = :id and j.status = dev.schedsim.simulation.SimulationStatus.RUNNING
              and j.workerId = :worker""")
    int requeueOwn(@Param("id") String id, @Param("worker") String worker);

    List<SimulationJob> findByStatusOrderByFinishedAtDescIdDesc(SimulationStatus status, Pageable pageable);
}
