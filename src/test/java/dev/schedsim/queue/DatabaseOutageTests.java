package dev.schedsim.queue;

import dev.schedsim.DatabaseErrors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.orm.jpa.JpaSystemException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Which errors are the database being away, in the shapes the fault test met them (scripts/fault-test.sh:
 * PostgreSQL stopped under two instances), and the retry that waits them out.
 */
class DatabaseOutageTests {
    @Test
    void theShapesOfAnOutageAreRecognised() {
        // HikariCP timing out for a connection while PostgreSQL is down
        assertThat(DatabaseErrors.isOutage(new CannotCreateTransactionException("could not open",
                new SQLTransientConnectionException("Connection is not available, request timed out")))).isTrue();
        // PostgreSQL terminating the connection: SQLSTATE 57P01
        assertThat(DatabaseErrors.isOutage(new JpaSystemException(new RuntimeException("JDBC exception",
                new SQLException("FATAL: terminating connection due to administrator command", "57P01"))))).isTrue();
        // the heartbeat that failed its simulation in the fault test: a rollback on a connection the pool closed
        assertThat(DatabaseErrors.isOutage(new JpaSystemException(new RuntimeException(
                "Unable to rollback against JDBC Connection", new SQLException("Connection is closed"))))).isTrue();
        // I/O to the server failed: SQLSTATE 08006
        assertThat(DatabaseErrors.isOutage(new SQLException("An I/O error occurred", "08006"))).isTrue();
    }

    @Test
    void errorsOfTheStatementOrTheDataAreNot() {
        assertThat(DatabaseErrors.isOutage(new DataIntegrityViolationException("duplicate key",
                new SQLException("duplicate key value violates unique constraint", "23505")))).isFalse();
        assertThat(DatabaseErrors.isOutage(new IllegalStateException("blocked-start task must block"))).isFalse();
        assertThat(DatabaseErrors.isOutage(new SQLException("syntax error at or near", "42601"))).isFalse();
        // A client that hung up is no outage; the same I/O error under the driver is.
        assertThat(DatabaseErrors.isOutage(new java.io.IOException("Broken pipe"))).isFalse();
        assertThat(DatabaseErrors.isOutage(new SQLException("send failed", null, new java.io.IOException("Broken pipe"))))
                .isTrue();
    }

    @Test
    void retryWaitsOutAnOutageAndGivesUpWhenStopping() {
        AtomicInteger calls = new AtomicInteger();
        String v = DatabaseOutage.retry("test", () -> {
            if (calls.incrementAndGet() < 3) {
                throw new CannotCreateTransactionException("down", new SQLException("refused", "08001"));
            }
            return "written";
        }, () -> false);
        assertThat(v).isEqualTo("written");
        assertThat(calls).hasValue(3);

        assertThatThrownBy(() -> DatabaseOutage.retry("test", () -> {
            throw new CannotCreateTransactionException("down", new SQLException("refused", "08001"));
        }, () -> true)).isInstanceOf(CannotCreateTransactionException.class);
        // Not an outage: thrown at once, not retried.
        AtomicInteger once = new AtomicInteger();
        assertThatThrownBy(() -> DatabaseOutage.retry("test", () -> {
            once.incrementAndGet();
            throw new IllegalArgumentException("bad");
        }, () -> false)).isInstanceOf(IllegalArgumentException.class);
        assertThat(once).hasValue(1);
    }
}
