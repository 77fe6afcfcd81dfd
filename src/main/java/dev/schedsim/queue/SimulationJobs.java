package dev.schedsim.queue;

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
              and (:owner is null or j.owner = :owner)
            order by j.createdAt desc, j.id desc""")
    Page<SimulationJob> search(@Param("status") SimulationStatus status, @Param("name") String name,
                               @Param("owner") String owner, Pageable pageable);

    /** A client's queued runs, from the rows: the same count on every instance (per-client limits). */
    @Query(value = """
            select count(*) from simulation_run r join simulation s on s.id = r.simulation_id
            where r.status = 'QUEUED' and s.owner = :owner""", nativeQuery = true)
    long countQueuedRunsOf(@Param("owner") String owner);

    /** A client's queued work: the estimated engine events of its queued runs (per-client limits). */
    @Query(value = """
            select coalesce(sum(r.estimated_events), 0) from simulation_run r join simulation s
              on s.id = r.simulation_id
            where r.status = 'QUEUED' and s.owner = :owner""", nativeQuery = true)
    long sumQueuedEventsOf(@Param("owner") String owner);

    /** How many simulations a client submitted since {@code since}, and the first of them (per-client rate). */
    @Query("select new dev.schedsim.queue.RecentSubmissions(count(j), min(j.createdAt)) from SimulationJob j "
            + "where j.owner = :owner and j.createdAt > :since")
    RecentSubmissions submittedSince(@Param("owner") String owner, @Param("since") Instant since);

    long countByStatus(SimulationStatus status);

    @Query("select j.requestJson from SimulationJob j where j.id = :id")
    String findRequestJson(@Param("id") String id);

    /** The first claimed run starts the simulation. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = dev.schedsim.queue.SimulationStatus.RUNNING,
              j.startedAt = :now, j.heartbeatAt = :now, j.workerId = :worker, j.progress = 0
            where j.id = :id and j.status = dev.schedsim.queue.SimulationStatus.QUEUED""")
    int markRunning(@Param("id") String id, @Param("worker") String worker, @Param("now") Instant now);

    /**
     * The simulation's progress is the mean of its runs' progress, its events their sum; also its heartbeat
     * (the runs carry the ones that matter for requeueing).
     */
    @Transactional
    @Modifying
    @Query(value = """
            update simulation set
              progress = (select coalesce(avg(r.progress), 0) from simulation_run r where r.simulation_id = :id),
              events = (select coalesce(sum(r.events), 0) from simulation_run r where r.simulation_id = :id),
              heartbeat_at = :now
            where id = :id and status = 'RUNNING'""", nativeQuery = true)
    int aggregate(@Param("id") String id, @Param("now") Instant now);

    /** Final state of a QUEUED or RUNNING simulation; 0 rows when someone else got there first. */
    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = :outcome, j.finishedAt = :now, j.progress = :progress,
              j.errorJson = :error, j.events = :events, j.heartbeatAt = :now
            where j.id = :id and (j.status = dev.schedsim.queue.SimulationStatus.RUNNING
              or j.status = dev.schedsim.queue.SimulationStatus.QUEUED)""")
    int finish(@Param("id") String id, @Param("outcome") SimulationStatus outcome,
               @Param("progress") double progress, @Param("error") String error,
               @Param("events") long events, @Param("now") Instant now);

    @Transactional
    @Modifying
    @Query("""
            update SimulationJob j set j.status = dev.schedsim.queue.SimulationStatus.CANCELLED,
              j.finishedAt = :now
            where j.id = :id and (j.status = dev.schedsim.queue.SimulationStatus.QUEUED
              or j.status = dev.schedsim.queue.SimulationStatus.RUNNING)""")
    int cancel(@Param("id") String id, @Param("now") Instant now);

    /**
     * A RUNNING simulation none of whose runs is running or done (all requeued, or a row from before runs
     * existed) whose heartbeat is older than {@code staleBefore} goes back to QUEUED, as it was before any claim.
     */
    @Transactional
    @Modifying
    @Query(value = """
            update simulation set status = 'QUEUED', started_at = null, worker_id = null, heartbeat_at = null,
              progress = 0, events = 0
            where status = 'RUNNING' and (heartbeat_at is null or heartbeat_at < :staleBefore)
              and not exists (select 1 from simulation_run r where r.simulation_id = simulation.id
                and r.status in ('RUNNING', 'SUCCEEDED'))""", nativeQuery = true)
    int requeueStale(@Param("staleBefore") Instant staleBefore);

    /** After its runs were given back at shutdown: QUEUED again unless some run is running or done. */
    @Transactional
    @Modifying
    @Query(value = """
            update simulation set status = 'QUEUED', started_at = null, worker_id = null, heartbeat_at = null,
              progress = 0, events = 0
            where id = :id and status = 'RUNNING'
              and not exists (select 1 from simulation_run r where r.simulation_id = simulation.id
                and r.status in ('RUNNING', 'SUCCEEDED'))""", nativeQuery = true)
    int requeueIfIdle(@Param("id") String id);

    /**
     * RUNNING simulations, quiet since {@code staleBefore}, none of whose runs is queued or running: the worker
     * that ended the last run died before it settled the simulation (SUCCEEDED or FAILED).
     */
    @Query(value = """
            select id from simulation s where s.status = 'RUNNING'
              and (s.heartbeat_at is null or s.heartbeat_at < :staleBefore)
              and exists (select 1 from simulation_run r where r.simulation_id = s.id)
              and not exists (select 1 from simulation_run r where r.simulation_id = s.id
                and r.status in ('QUEUED', 'RUNNING'))""", nativeQuery = true)
    List<String> findUnsettled(@Param("staleBefore") Instant staleBefore);

    /** Unfinished simulations that have no run rows yet (rows written before runs existed). */
    @Query(value = """
            select id from simulation s where s.status in ('QUEUED', 'RUNNING')
              and not exists (select 1 from simulation_run r where r.simulation_id = s.id)""", nativeQuery = true)
    List<String> findUnfinishedWithoutRuns();

    @Transactional
    @Modifying
    @Query("""
            delete from SimulationJob j where j.id = :id
            and j.status in (dev.schedsim.queue.SimulationStatus.SUCCEEDED,
              dev.schedsim.queue.SimulationStatus.FAILED, dev.schedsim.queue.SimulationStatus.CANCELLED)""")
    int deleteFinished(@Param("id") String id);

    List<SimulationJob> findByStatusOrderByFinishedAtDescIdDesc(SimulationStatus status, Pageable pageable);
}
