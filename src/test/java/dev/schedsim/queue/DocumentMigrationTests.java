package dev.schedsim.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * V3__documents_apart.sql on a database that V2 left with documents in it: the stored results and run reports
 * move to their own tables unchanged, and the old columns are gone. On H2 always, and on the PostgreSQL server of
 * {@code SPRING_DATASOURCE_URL} (CI) in a schema of its own that the test drops.
 */
class DocumentMigrationTests {
    private static final String RESULT = "{\"variants\":[{\"label\":\"a\"}],\"note\":\"" + "x".repeat(20_000) + "\"}";

    @Test
    void theDocumentsOfAVersion2DatabaseMoveToTheirOwnTables() throws SQLException {
        String url = "jdbc:h2:mem:migration-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            migrateAndCheck(Flyway.configure().dataSource(url, "sa", ""), c, "");
        }
    }

    @Test
    @EnabledIf(value = "dev.schedsim.queue.LocalPostgres#available",
            disabledReason = "no PostgreSQL: neither SPRING_DATASOURCE_URL nor one on 127.0.0.1:5432 (database test)")
    void theSameOnPostgresql() throws SQLException {
        try (PostgresSchema schema = PostgresSchema.named("migration_"); Connection c = schema.connect()) {
            migrateAndCheck(Flyway.configure().dataSource(schema.url(), schema.user(), schema.password())
                    .schemas(schema.name()), c, schema.name() + ".");
        }
    }

    private static void migrateAndCheck(org.flywaydb.core.api.configuration.FluentConfiguration flyway,
                                        Connection c, String schema) throws SQLException {
        flyway.locations("classpath:db/migration").target("2").load().migrate();
        try (Statement s = c.createStatement()) {
            for (String id : List.of("done", "running")) {
                s.execute("insert into " + schema + "simulation (id, name, status, created_at, progress, request_json,"
                        + " result_json, request_hash, events) values ('" + id + "', 'n', '"
                        + (id.equals("done") ? "SUCCEEDED" : "RUNNING") + "', current_timestamp, 0, '{}', "
                        + (id.equals("done") ? "'" + RESULT + "'" : "null") + ", 'h', 0)");
                for (int i = 0; i < 2; i++) {
                    boolean stored = id.equals("done") || i == 0;
                    s.execute("insert into " + schema + "simulation_run (id, simulation_id, run_index, status,"
                            + " created_at, attempts, progress, events, simulated_us, report_json) values ('" + id
                            + "/" + i + "', '" + id + "', " + i + ", '" + (stored ? "SUCCEEDED" : "RUNNING")
                            + "', current_timestamp, 1, 0, 0, 0, " + (stored ? "'{\"run\":" + i + "}'" : "null") + ")");
                }
            }
        }
        flyway.target("latest").load().migrate();
        try (Statement s = c.createStatement()) {
            assertThat(rows(s, "select simulation_id, result_json from " + schema + "simulation_result"))
                    .containsExactly("done " + RESULT);
            assertThat(rows(s, "select run_id, simulation_id, run_index, report_json from " + schema
                    + "simulation_run_report order by run_id")).containsExactly(
                    "done/0 done 0 {\"run\":0}", "done/1 done 1 {\"run\":1}", "running/0 running 0 {\"run\":0}");
            assertThat(rows(s, "select count(*) from " + schema + "simulation")).containsExactly("2");
            assertThat(columns(c, schema, "simulation")).doesNotContain("result_json").contains("request_json");
            assertThat(columns(c, schema, "simulation_run")).doesNotContain("report_json").contains("events");
            // Deleting a simulation still takes its documents with it.
            s.execute("delete from " + schema + "simulation where id = 'done'");
            assertThat(rows(s, "select count(*) from " + schema + "simulation_result")).containsExactly("0");
            assertThat(rows(s, "select run_id from " + schema + "simulation_run_report"))
                    .containsExactly("running/0");
        }
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? " " : "").append(r.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    private static List<String> columns(Connection c, String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        String sch = schema.isEmpty() ? null : schema.substring(0, schema.length() - 1);
        for (String t : List.of(table, table.toUpperCase())) {
            try (ResultSet r = c.getMetaData().getColumns(null, sch == null ? null : sch, t, null)) {
                while (r.next()) {
                    out.add(r.getString("COLUMN_NAME").toLowerCase());
                }
            }
        }
        return out;
    }
}
