package dev.schedsim;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Errors that say the database is away (stopped, restarting, unreachable, out of connections, its file closed
 * after an I/O error) rather than that a statement or a simulation is wrong. The queue waits and retries on them
 * ({@code queue.DatabaseOutage}), the HTTP layer answers 503 with Retry-After ({@code http.ProblemHandlers}):
 * such an error is never a simulation's failure nor the client's.
 */
public final class DatabaseErrors {
    private DatabaseErrors() {
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
    public static boolean isH2FileError(int code) {
        return code == 90098 || code == 90028 || code == 90031 || code == 90030 || code == 90100 || code == 90121;
    }

    /** The innermost cause, as a log line names it (class and message, cut at 200 characters). */
    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + (m.length() > 200 ? m.substring(0, 200) : m));
    }
}
