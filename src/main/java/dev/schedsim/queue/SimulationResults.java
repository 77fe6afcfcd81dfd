package dev.schedsim.queue;

import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** The result documents of SUCCEEDED simulations ({@link SimulationResult}). */
public interface SimulationResults extends JpaRepository<SimulationResult, String> {

    /** The result document of a simulation, empty until it SUCCEEDED. */
    @Query("select r.resultJson from SimulationResult r where r.simulationId = :id")
    Optional<String> findResultJson(@Param("id") String simulationId);
}
