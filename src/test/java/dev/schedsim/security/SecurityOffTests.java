package dev.schedsim.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Without keys the service answers as it did before security existed: no key needed anywhere, no headers added,
 * and paths Spring Security's strict firewall would refuse (a {@code ;} parameter) still served; a key sent anyway
 * is ignored, and new rows have no owner.
 */
class SecurityOffTests {
    @Test
    void withoutKeysNothingIsRequiredOrAdded() {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:security-off;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.workers=1", "schedsim.warmup=0s"))) {
            Http http = EndToEnd.http(ctx);
            HttpResponse<String> profiles = http.get("/api/v1/kernel-profiles");
            assertThat(profiles.statusCode()).isEqualTo(200);
            assertThat(profiles.headers().map().keySet()).noneMatch(h -> h.equalsIgnoreCase("X-Frame-Options")
                    || h.equalsIgnoreCase("X-Content-Type-Options") || h.equalsIgnoreCase("Cache-Control"));
            assertThat(http.get("/api/v1/kernel-profiles;x=1").statusCode()).isEqualTo(200);
            assertThat(http.get("/actuator/prometheus").statusCode()).isEqualTo(200);
            assertThat(http.withKey("whatever-it-is-000001").get("/api/v1/simulations").statusCode()).isEqualTo(200);

            String id = EndToEnd.submit(http, EndToEnd.FAIR_SHARE);
            assertThat(ctx.getBean(org.springframework.jdbc.core.JdbcTemplate.class).queryForObject(
                    "select owner from simulation where id = ?", String.class, id)).isNull();
            assertThat(http.delete("/api/v1/simulations/" + id).statusCode()).isIn(204, 409);
        }
    }
}
