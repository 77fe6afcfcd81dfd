package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Durability#flush()} on an H2 file database: a commit is in the file only after it. The database runs with
 * a write delay of 100 s here, so H2's background writer does not store the commits during the test; the file is
 * read through a copy, as a process started after a {@code kill -9} would read it.
 */
class DurabilityTests {
    @TempDir
    Path dir;

    @Test
    void aFlushPutsWhatWasCommittedInTheFile() throws Exception {
        Path db = dir.resolve("live");
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:" + db + ";AUTO_SERVER=FALSE;WRITE_DELAY=100000");
        ds.setUser("sa");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key)");
            Durability durability = new Durability(ds);
            assertThat(durability.flushes()).isTrue();
            durability.flush();
            s.execute("insert into t values (1)");
            // Committed (auto-commit), not yet in the file:
            assertThat(idsInACopyOfTheFile(db, "before")).isEmpty();
            durability.flush();
            assertThat(idsInACopyOfTheFile(db, "after")).containsExactly(1);
        }
    }

    @Test
    void nothingToDoForAnInMemoryDatabase() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:durability;DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        Durability durability = new Durability(ds);
        assertThat(durability.flushes()).isFalse();
        durability.flush();
    }

    private java.util.List<Integer> idsInACopyOfTheFile(Path db, String name) throws SQLException,
            java.io.IOException {
        Path copy = dir.resolve(name);
        Files.copy(Path.of(db + ".mv.db"), Path.of(copy + ".mv.db"));
        java.util.List<Integer> ids = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + copy + ";AUTO_SERVER=FALSE", "sa", "");
             Statement s = c.createStatement()) {
            s.execute("create table if not exists t (id int primary key)");
            try (ResultSet r = s.executeQuery("select id from t order by id")) {
                while (r.next()) {
                    ids.add(r.getInt(1));
                }
            }
        }
        return ids;
    }
}
