package dev.schedsim.security;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * One client's admissions one at a time, so that its limits are exact: without it, 50 parallel submissions against
 * a queue limit of 10 all read "9 queued" and 12-20 were accepted (issue 36). Two locks, both per client:
 *
 * <ul>
 *   <li>in this process, a lock taken before the admission's transaction, so that a burst waits here and not
 *       holding database connections (the pool has 10);</li>
 *   <li>in the database, for the instances that share it: on PostgreSQL a transaction-scoped advisory lock on the
 *       client's name, taken first in the admission's transaction and released by its commit, after which the
 *       next one's counts see what it wrote (READ COMMITTED reads anew per statement). H2 is a file one process
 *       opens (AUTO_SERVER=FALSE), so the process's lock is all of it there.</li>
 * </ul>
 */
@Component
class ClientLocks {
    /** Lock stripes: clients hashing alike wait for each other, a little, never for long. */
    private static final int STRIPES = 64;
    /** A burst of one client waits at most this long for its turn, then gets 503 (the service is busy). */
    static final long WAIT_SECONDS = 10;
    /** Advisory lock namespace (pg_advisory_xact_lock's first key): this service's admissions. */
    private static final int NAMESPACE = 0x5c4ed036;

    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private final JdbcTemplate jdbc;
    private final boolean postgres;

    ClientLocks(DataSource dataSource) {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock(true);
        }
        this.jdbc = new JdbcTemplate(dataSource);
        this.postgres = isPostgres(dataSource);
    }

    private static boolean isPostgres(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("postgres");
        } catch (SQLException e) {
            // Not reachable at start (an outage): the URL says which database it will be.
            return false;
        }
    }

    /** The in-process lock of {@code owner}, held while {@code work} runs. */
    <T> T exclusive(String owner, java.util.function.Supplier<T> work) {
        ReentrantLock lock = stripes[Math.floorMod(owner.hashCode(), STRIPES)];
        try {
            if (!lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS)) {
                // A burst of one client queues behind itself; past this it is told to come back, not held.
                throw new dev.schedsim.http.ClientLimitException("schedsim.security.submissions-per-minute", 0, 1,
                        "client '" + owner + "' has submissions waiting " + WAIT_SECONDS + " s for their turn to be "
                                + "admitted; send fewer at once and retry in 1 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the client's admission", e);
        }
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** The database lock of {@code owner}, in the current transaction (held until it ends). */
    void lockInTransaction(String owner) {
        if (postgres) {
            jdbc.query("select pg_advisory_xact_lock(?, hashtext(?))", rs -> null, NAMESPACE, owner);
        }
    }
}
