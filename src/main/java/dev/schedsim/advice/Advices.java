package dev.schedsim.advice;

import dev.schedsim.queue.SimulationStatus;
import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

/** The advice rows. */
public interface Advices extends JpaRepository<Advice, String> {
    List<Advice> findByStatusOrderByCreatedAt(SimulationStatus status);
}
