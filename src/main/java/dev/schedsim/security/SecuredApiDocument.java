package dev.schedsim.security;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With security on, the OpenAPI document says how to send a key (bearer, or the X-API-Key header), so that
 * Swagger UI's "Authorize" sends it with every example it runs, and that every operation may answer 401 and 403
 * (problem details). Off, the document stays as it was.
 */
@Configuration(proxyBeanMethods = false)
class SecuredApiDocument {
    @Bean
    OpenApiCustomizer apiKeySchemes(SecurityMode mode) {
        return api -> {
            if (!mode.on()) {
                return;
            }
            if (api.getComponents() == null) {
                api.setComponents(new Components());
            }
            api.getComponents()
                    .addSecuritySchemes("bearer", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                            .description("an API key of schedsim.security.api-keys: Authorization: Bearer <secret>"))
                    .addSecuritySchemes("apiKey", new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                            .in(SecurityScheme.In.HEADER).name(ApiKeyFilter.HEADER)
                            .description("the same key as X-API-Key: <secret>"));
            api.addSecurityItem(new SecurityRequirement().addList("bearer"));
            api.addSecurityItem(new SecurityRequirement().addList("apiKey"));
            if (api.getPaths() != null) {
                // every operation may answer them (ProblemResponses), so a generated client knows their body
                api.getPaths().values().forEach(path -> path.readOperations().forEach(op -> {
                    if (op.getResponses() != null) {
                        op.getResponses().putIfAbsent("401", problem("No key or token, or not a valid one"));
                        op.getResponses().putIfAbsent("403", problem("The key's or token's role may not do this"));
                    }
                }));
            }
        };
    }

    private static ApiResponse problem(String description) {
        return new ApiResponse().description(description).content(new Content().addMediaType(
                org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/ProblemDetail"))));
    }
}
