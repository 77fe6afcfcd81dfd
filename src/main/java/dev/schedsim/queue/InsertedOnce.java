package dev.schedsim.queue;

import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Transient;
import org.springframework.data.domain.Persistable;

/**
 * A row that is only ever inserted new (its id is assigned, not generated): {@code save()} inserts it without
 * reading first, so a concurrent duplicate fails on the primary key instead of being merged; loaded or stored, it
 * is no longer new.
 */
@MappedSuperclass
abstract class InsertedOnce implements Persistable<String> {
    @Transient
    private boolean fresh = true;

    @Override
    public boolean isNew() {
        return fresh;
    }

    @PostLoad
    @PostPersist
    void stored() {
        fresh = false;
    }
}
