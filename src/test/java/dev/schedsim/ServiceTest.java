package dev.schedsim;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A test against the service started on a random port ({@code @SpringBootTest(webEnvironment = RANDOM_PORT)}):
 * {@link #http} is a client of it, fresh for each test.
 */
public abstract class ServiceTest {
    @LocalServerPort
    protected int port;
    protected Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }
}
