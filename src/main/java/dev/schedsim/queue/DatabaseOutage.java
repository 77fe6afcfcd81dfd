package dev.schedsim.queue;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Errors that say the database is away (stopped, restarting, unreachable, out of connections, its file closed
 * after an I/O error) rather than that a statement or a simulation is wrong, and the worker side's answer to
 * them: wait and retry with backoff. Such an error is never a simulation's failure (issue "Faults without
 * loss"): a heartbeat that cannot be written is skipped, a finished run's results are stored when the database
 * returns, a run that cannot be handled goes back to the queue.
 */
public final class DatabaseOutage {
    private static final Logger log = LoggerFactory.getLogger(DatabaseOutage.class);
    private static final long FIRST_WAIT_MS = 100;
    private static final long LONGEST_WAIT_MS = 5_000;

    private DatabaseOutage() {
    }

    /** Whether {@code e}, or anything it was caused by, says the database is unavailable. */
    public static boolean isOutage(Throwable e) {
        // An I/O error counts only under a database error (the driver's socket), not on its own: a client that
        // hung up mid-request is no outage.
        boolean underDatabase = false;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CannotCreateTransactionException || t instanceof DataAccessResourceFailureException
                    || t instanceof TransientDataAccessException || t instanceof QueryTimeoutException
                    || t instanceof SQLTransientException || t instanceof SQLRecoverableException
                    || (underDatabase && t instanceof IOException)) {
                return true;
            }
            underDatabase |= t instanceof SQLException || t instanceof org.springframework.dao.DataAccessException
                    || t instanceof org.springframework.transaction.TransactionException;
            if (t instanceof SQLException s && (outageState(s) || closedConnection(s))) {
                return true;
            }
            String name = t.getClass().getName();
            // Hibernate wraps the driver's connection errors in these (no compile-time dependency needed);
            // TransactionException is its "Unable to commit/rollback against JDBC Connection".
            if (name.equals("org.hibernate.exception.JDBCConnectionException")
                    || name.equals("org.hibernate.exception.LockAcquisitionException")
                    || name.equals("org.hibernate.TransactionException")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A connection the pool or the driver closed under the caller when the database went away: HikariCP's proxy
     * says "Connection is closed" without an SQLSTATE (seen when PostgreSQL stopped during a heartbeat).
     */
    private static boolean closedConnection(SQLException s) {
        String m = s.getMessage();
        return s.getSQLState() == null && m != null && m.toLowerCase(java.util.Locale.ROOT).contains("connection")
                && m.toLowerCase(java.util.Locale.ROOT).contains("closed");
    }

    /**
     * SQLSTATE class 08 (connection exception), PostgreSQL's 57P01-57P03 (administrator shutdown, crash shutdown,
     * cannot connect now), 53300 (too many connections); H2's file errors ({@link #isH2FileError}).
     */
    private static boolean outageState(SQLException s) {
        String state = s.getSQLState();
        if (state != null && (state.startsWith("08") || state.startsWith("57P") || state.equals("53300"))) {
            return true;
        }
        return isH2FileError(s.getErrorCode());
    }

    /**
     * H2's codes for its database closed after a failure (90098), its file's I/O errors (90028, 90031, 90030: a
     * write that did not complete), no disk space (90100) and a call during VM shutdown (90121).
     */
    static boolean isH2FileError(int code) {
        return code == 90098 || code == 90028 || code == 90031 || code == 90030 || code == 90100 || code == 90121;
    }

    /**
     * Runs {@code op} until it succeeds, waiting 0.1 s, 0.2 s, ... up to 5 s between attempts while the database is
     * away; other errors are thrown at once. When {@code giveUp} says so (the service is stopping) the last outage
     * error is thrown: what was not written stays as the database has it (a RUNNING run is requeued by recovery).
     */
    public static <T> T retry(String what, Supplier<T> op, BooleanSupplier giveUp) {
        long waitMs = FIRST_WAIT_MS;
        long since = System.nanoTime();
        int attempts = 0;
        while (true) {
            try {
                T value = op.get();
                if (attempts > 0) {
                    log.info("{}: done after the database was away for {} s", what,
                            Duration.ofNanos(System.nanoTime() - since).toSeconds());
                }
                return value;
            } catch (RuntimeException e) {
                if (!isOutage(e) || giveUp.getAsBoolean()) {
                    throw e;
                }
                if (attempts++ % 20 == 0) {
                    log.warn("{}: the database is unavailable ({}); retrying", what, rootMessage(e));
                }
            }
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(what + ": interrupted while waiting for the database", ie);
            }
            waitMs = Math.min(LONGEST_WAIT_MS, waitMs * 2);
        }
    }

    /** {@link #retry(String, Supplier, BooleanSupplier)} for a write without a result. */
    public static void retry(String what, Runnable op, BooleanSupplier giveUp) {
        retry(what, () -> {
            op.run();
            return null;
        }, giveUp);
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + (m.length() > 200 ? m.substring(0, 200) : m));
    }
}
