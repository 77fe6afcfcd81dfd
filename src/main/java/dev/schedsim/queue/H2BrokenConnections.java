package dev.schedsim.queue;

import dev.schedsim.DatabaseErrors;
import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;

/**
 * HikariCP evicts a connection on SQLSTATE class 08 and a few vendor codes; H2 says its database is closed (after
 * an I/O error such as a full disk, it closes itself) with its own codes, so the pool kept handing out dead
 * connections and only a restart helped. Evicted, the next connection opens the file again: once the disk has
 * room, the service recovers by itself. Set as {@code spring.datasource.hikari.exception-override-class-name}.
 */
public final class H2BrokenConnections implements SQLExceptionOverride {
    @java.lang.Override
    public SQLExceptionOverride.Override adjudicate(SQLException e) {
        if (DatabaseErrors.isH2FileError(e.getErrorCode())) {
            return SQLExceptionOverride.Override.MUST_EVICT;
        }
        return SQLExceptionOverride.Override.CONTINUE_EVICT;
    }
}
