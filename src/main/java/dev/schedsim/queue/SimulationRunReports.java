package dev.schedsim.queue;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

/** The stored engine reports of the runs that succeeded ({@link SimulationRunReport}). */
public interface SimulationRunReports extends JpaRepository<SimulationRunReport, String> {

    List<SimulationRunReport> findBySimulationIdOrderByRunIndex(String simulationId);
}
