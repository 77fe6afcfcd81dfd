package dev.schedsim.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With security on and the actuator on a port of its own ({@code management.server.port}, as docker-compose.yml
 * runs it): the scraper reads {@code /actuator/prometheus} there without a key, while the API port still wants
 * keys and no longer serves the actuator.
 */
class ManagementPortTests {
    static final String ROOT = "root-admin-secret-000001";

    @Test
    void theManagementPortIsOpenAndTheApiPortStillWantsKeys() throws IOException {
        int management;
        try (ServerSocket s = new ServerSocket(0)) {
            management = s.getLocalPort();
        }
        try (ConfigurableApplicationContext ctx = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:management-port;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.workers=1", "schedsim.warmup=0s",
                "management.server.port=" + management, "schedsim.security.api-keys=root:" + ROOT + ":admin"))) {
            Http api = EndToEnd.http(ctx);
            Http ops = new Http(management);
            HttpResponse<String> scrape = ops.get("/actuator/prometheus");
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("schedsim_simulations");
            assertThat(ops.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
            assertThat(ops.get("/actuator/info").statusCode()).isEqualTo(200);

            assertThat(api.get("/api/v1/simulations").statusCode()).isEqualTo(401);
            assertThat(api.withKey(ROOT).get("/api/v1/simulations").statusCode()).isEqualTo(200);
            assertThat(api.get("/actuator/prometheus").statusCode()).isEqualTo(401);
            assertThat(api.withKey(ROOT).get("/actuator/prometheus").statusCode()).isEqualTo(404);
        }
    }
}
