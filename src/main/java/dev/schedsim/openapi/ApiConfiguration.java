package dev.schedsim.openapi;

import dev.schedsim.request.Limits;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Limits and the OpenAPI description. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(Limits.class)
class ApiConfiguration {
    @Bean
    OpenAPI schedsimOpenApi() {
        return new OpenAPI().info(new Info().title("SchedSim API").version("v1")
                .description("A Linux scheduler (CFS/EEVDF) and cgroup CPU bandwidth simulator. Submit a "
                        + "simulation with the example of POST /api/v1/simulations, then follow it with "
                        + "GET /api/v1/simulations/{id} using the returned id. Errors are RFC 9457 problem "
                        + "details."));
    }
}
