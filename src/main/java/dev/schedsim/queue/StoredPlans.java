package dev.schedsim.queue;

import org.springframework.data.jpa.repository.JpaRepository;

/** The stored plans ({@link StoredPlan}), by simulation id. */
public interface StoredPlans extends JpaRepository<StoredPlan, String> {
}
