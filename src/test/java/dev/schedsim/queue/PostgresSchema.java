package dev.schedsim.queue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A schema of a test's own on the PostgreSQL server named by {@code SPRING_DATASOURCE_URL} (CI exports a local
 * one), dropped with everything in it on {@link #close()}; the database's other schemas are left alone.
 */
public record PostgresSchema(String url, String user, String password, String name) implements AutoCloseable {

    /** A new, unique schema name starting with {@code prefix} (the schema itself is created by whoever uses it). */
    public static PostgresSchema named(String prefix) {
        return new PostgresSchema(LocalPostgres.url(), LocalPostgres.user(), LocalPostgres.password(),
                prefix + UUID.randomUUID().toString().replace("-", ""));
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** The server's URL with this schema as the connections' current schema. */
    String urlInSchema() {
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + name;
    }

    /** The service's properties for this schema: Flyway creates it and migrates into it, the service uses it. */
    public java.util.List<String> properties() {
        return java.util.List.of("spring.datasource.url=" + urlInSchema(), "spring.flyway.schemas=" + name,
                "spring.datasource.username=" + user, "spring.datasource.password=" + password);
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("drop schema if exists " + name + " cascade");
        }
    }
}
