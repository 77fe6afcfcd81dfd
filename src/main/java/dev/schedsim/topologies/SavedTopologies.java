package dev.schedsim.topologies;

import org.springframework.data.jpa.repository.JpaRepository;

/** The saved topologies by name. */
public interface SavedTopologies extends JpaRepository<SavedTopology, String> {
}
