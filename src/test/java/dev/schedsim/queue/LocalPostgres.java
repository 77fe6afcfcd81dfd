package dev.schedsim.queue;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;

/**
 * The PostgreSQL server the PostgreSQL tests use: the one {@code SPRING_DATASOURCE_URL} names, else a local one
 * found by itself (127.0.0.1:5432, database {@code test}, user {@code postgres}, trust authentication), so that
 * {@code ./mvnw verify} runs them wherever such a server is up without any variable set. None: they are skipped.
 */
public final class LocalPostgres {
    static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test";
    private static volatile Boolean found;

    private LocalPostgres() {
    }

    /** Whether a server is there (for {@code @EnabledIf("dev.schedsim.queue.LocalPostgres#available")}). */
    public static boolean available() {
        if (found == null) {
            found = configured() || reachable();
        }
        return found;
    }

    /** The opposite, for the Testcontainers test that stands in when no server is there. */
    public static boolean unavailable() {
        return !available();
    }

    /** No server, but a Docker daemon to start one in (a socket or DOCKER_HOST; not probed further). */
    public static boolean dockerWithoutPostgres() {
        return unavailable() && (System.getenv("DOCKER_HOST") != null
                || java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock")));
    }

    public static String url() {
        return configured() ? System.getenv("SPRING_DATASOURCE_URL") : LOCAL_URL;
    }

    public static String user() {
        return configured() ? System.getenv().getOrDefault("SPRING_DATASOURCE_USERNAME", "postgres") : "postgres";
    }

    public static String password() {
        return configured() ? System.getenv().getOrDefault("SPRING_DATASOURCE_PASSWORD", "") : "";
    }

    /** The service's properties for this server (command-line arguments outrank the environment). */
    public static List<String> properties() {
        return List.of("spring.datasource.url=" + url(), "spring.datasource.username=" + user(),
                "spring.datasource.password=" + password());
    }

    private static boolean configured() {
        String url = System.getenv("SPRING_DATASOURCE_URL");
        return url != null && url.startsWith("jdbc:postgresql:");
    }

    private static boolean reachable() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", 5432), 300);
        } catch (java.io.IOException e) {
            return false;
        }
        try (Connection c = DriverManager.getConnection(LOCAL_URL, "postgres", "")) {
            return c.isValid(2);
        } catch (java.sql.SQLException e) {
            return false;
        }
    }
}
