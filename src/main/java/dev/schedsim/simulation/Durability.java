package dev.schedsim.simulation;

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

    private final DataSource dataSource;
    private volatile boolean h2File;

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

    /** Every change committed so far is on disk when this returns (H2's CHECKPOINT; nothing on PostgreSQL). */
    public void flush() {
        if (!h2File) {
            return;
        }
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CHECKPOINT");
        } catch (SQLException e) {
            // CHECKPOINT needs an administrator; a database opened as another user commits in the background.
            log.warn("CHECKPOINT failed ({}); acknowledged writes are durable within H2's write delay only", e
                    .getMessage());
            h2File = false;
        }
    }
}
