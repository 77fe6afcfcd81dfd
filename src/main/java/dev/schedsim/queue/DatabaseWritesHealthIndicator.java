package dev.schedsim.queue;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code databaseWrites} in /actuator/health and its readiness group: DOWN while the H2 file cannot be written (a
 * full disk: reads, and so the {@code db} check, still work). Once a write failed, each check tries a CHECKPOINT
 * and says UP again when one goes through. Always UP on PostgreSQL, whose writes {@code db} covers.
 */
@Component
class DatabaseWritesHealthIndicator implements HealthIndicator {
    private final Durability durability;

    DatabaseWritesHealthIndicator(Durability durability) {
        this.durability = durability;
    }

    @Override
    public Health health() {
        if (!durability.flushes() || durability.writable()) {
            return Health.up().build();
        }
        try {
            durability.flush();
            return Health.up().build();
        } catch (RuntimeException e) {
            return Health.down().withDetail("reason", "the database file cannot be written (is the disk full?)")
                    .build();
        }
    }
}
