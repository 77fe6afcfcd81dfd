package dev.schedsim.queue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Makes what a client was told durable before it is told. On PostgreSQL every commit is. The embedded H2 file
 * database writes commits to its file in the background, within its write delay (500 ms by default), and its
 * background writer also compacts the file; {@link #flush()} runs H2's {@code CHECKPOINT}, which writes every
 * change committed so far before it returns. It is called after the writes a client is acknowledged for (a
 * submission, a cancel, a removal, a saved topology) and when a simulation ends.
 *
 * <p>The other writes (a run claimed, a heartbeat, a run of a sweep finished) are not flushed: a {@code kill -9}
 * within the write delay loses at most those, and the next start runs such runs again (the engine is
 * deterministic, so the same result). This replaced {@code WRITE_DELAY=0}, which wrote the file at every commit
 * and, because it also stops H2's background writer, never compacted it: a few minutes of sweeps left a
 * database file of gigabytes.
 */
@Component
public class Durability {
    private static final Logger log = LoggerFactory.getLogger(Durability.class);

    /** H2's ADMIN_RIGHTS_REQUIRED. */
    private static final int ADMIN_RIGHTS_REQUIRED = 90040;

    private final DataSource dataSource;
    private volatile boolean h2File;
    /** The last CHECKPOINT failed: the file cannot be written (readiness says so until one succeeds). */
    private volatile boolean writeFailed;

    Durability(DataSource dataSource) {
        this.dataSource = dataSource;
        try (Connection c = dataSource.getConnection()) {
            String url = c.getMetaData().getURL();
            h2File = "H2".equals(c.getMetaData().getDatabaseProductName()) && url != null
                    && !url.startsWith("jdbc:h2:mem:");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the database's metadata", e);
        }
    }

    /** True when {@link #flush()} has work to do (an H2 file database). */
    public boolean flushes() {
        return h2File;
    }

    /** False after a CHECKPOINT failed, until one succeeds again. */
    public boolean writable() {
        return !writeFailed;
    }

    /** Every change committed so far is on disk when this returns (H2's CHECKPOINT; nothing on PostgreSQL). */
    public void flush() {
        if (!h2File) {
            return;
        }
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CHECKPOINT");
            writeFailed = false;
        } catch (SQLException e) {
            if (e.getErrorCode() == ADMIN_RIGHTS_REQUIRED) {
                // CHECKPOINT needs an administrator; a database opened as another user commits in the background.
                log.warn("CHECKPOINT not allowed ({}); acknowledged writes are durable within H2's write delay only",
                        e.getMessage());
                h2File = false;
                return;
            }
            // The write did not reach the disk (it is full, or the file failed): the client must not be told it
            // did. The caller answers 503; H2 closes itself after such an error and the pool opens it again
            // (H2BrokenConnections) once the disk has room.
            writeFailed = true;
            throw new org.springframework.dao.DataAccessResourceFailureException(
                    "the database could not write its file: " + e.getMessage(), e);
        }
    }
}
