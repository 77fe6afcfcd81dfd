package dev.schedsim.security;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.firewall.FirewalledRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The filter chain. Off (no {@code schedsim.security.api-keys} and no OAuth2 resource server): every request passes
 * as before security existed, and the start says so loudly. On, clients authenticate with an API key
 * ({@link ApiKeyFilter}) or, with {@code spring.security.oauth2.resourceserver.jwt.*} set, an access token
 * ({@link JwtClients}); then:
 * <ul>
 * <li>open: {@code /actuator/health} (and liveness, readiness), the OpenAPI document and Swagger UI (they hold no
 *     data), the container's error page; and everything on a separate {@code management.server.port}, which is
 *     meant to be reachable by the scraper only (not published);</li>
 * <li>{@code /actuator/**} otherwise (prometheus, info): admin;</li>
 * <li>{@code GET}/{@code HEAD}/{@code OPTIONS} of {@code /api/**}: any key (read, submit, admin); what a key sees of
 *     simulations and saved topologies is its own ({@link Clients});</li>
 * <li>any other method of {@code /api/**}: submit or admin;</li>
 * <li>anything else: any key.</li>
 * </ul>
 * No session, no CSRF token (no cookies: a key is sent with each request), no login page, no logout, no HTTP
 * Basic: a request without a key gets 401 problem+json, one with a role that may not 403.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApiSecurityProperties.class)
class SecurityConfiguration {
    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);
    private final ApiSecurityProperties properties;

    SecurityConfiguration(ApiSecurityProperties properties) {
        this.properties = properties;
    }

    @Bean
    SecurityMode securityMode(ObjectProvider<JwtDecoder> jwt) {
        boolean tokens = jwt.getIfAvailable() != null;
        return new SecurityMode(properties.enabled() || tokens, tokens);
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, SecurityMode mode, ObjectProvider<JwtDecoder> jwt,
                                    @Value("${server.port:8080}") int serverPort,
                                    @Value("${management.server.port:-1}") int managementPort) throws Exception {
        http.csrf(c -> c.disable())
                .logout(l -> l.disable())
                .requestCache(c -> c.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        if (!mode.on()) {
            // As before security existed: no headers added, nothing required.
            http.headers(h -> h.disable()).authorizeHttpRequests(a -> a.anyRequest().permitAll());
            return http.build();
        }
        ApiKeys keys = ApiKeys.parse(properties.apiKeys());
        ProblemResponses problems = new ProblemResponses();
        boolean separateManagement = managementPort > 0 && managementPort != serverPort;
        RequestMatcher onManagementPort = r -> separateManagement && r.getLocalPort() == managementPort;
        String read = Role.READ.role();
        String submit = Role.SUBMIT.role();
        String admin = Role.ADMIN.role();
        if (mode.jwt()) {
            // Bearer tokens that are no API key go to the resource server (it runs before ApiKeyFilter).
            http.oauth2ResourceServer(o -> o.bearerTokenResolver(JwtClients.tokens(keys))
                    .authenticationEntryPoint(problems).accessDeniedHandler(problems)
                    .jwt(j -> j.decoder(jwt.getObject()).jwtAuthenticationConverter(
                            new JwtClients(properties.jwtNameClaim(), properties.jwtRoleClaim()))));
        }
        http.addFilterBefore(new ApiKeyFilter(keys, problems), AnonymousAuthenticationFilter.class)
                .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .authorizeHttpRequests(a -> a
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers("/actuator/health", "/actuator/health/**").permitAll()
                        .requestMatchers(onManagementPort).permitAll()
                        .requestMatchers("/actuator", "/actuator/**").hasRole(admin)
                        .requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml", "/swagger-ui.html",
                                "/swagger-ui/**").permitAll()
                        // the advisor's page: a form and its script, no one's data (the key is typed into it)
                        .requestMatchers(HttpMethod.GET, "/advisor").permitAll()
                        .requestMatchers(HttpMethod.GET, "/api/**").hasAnyRole(read, submit, admin)
                        .requestMatchers(HttpMethod.HEAD, "/api/**").hasAnyRole(read, submit, admin)
                        .requestMatchers(HttpMethod.OPTIONS, "/api/**").hasAnyRole(read, submit, admin)
                        .requestMatchers("/api/**").hasAnyRole(submit, admin)
                        .anyRequest().authenticated());
        log.info("security on: {} API key(s){}; per client: {} queued runs, {} submissions per minute (0: no limit)",
                properties.apiKeys().size(), mode.jwt() ? " and OAuth2 access tokens" : "",
                properties.maxQueuedPerClient(), properties.submissionsPerMinute());
        return http.build();
    }

    /**
     * Off, requests reach the application as they did before security existed: Spring Security's strict request
     * firewall would answer 400 to paths the application served (a {@code ;} parameter, {@code //}, an encoded
     * {@code .}). On, the strict firewall stays (those paths get 400 problem+json).
     */
    @Bean
    WebSecurityCustomizer requestFirewall(SecurityMode mode) {
        return web -> {
            if (!mode.on()) {
                web.httpFirewall(new HttpFirewall() {
                    @Override
                    public FirewalledRequest getFirewalledRequest(HttpServletRequest request) {
                        return new FirewalledRequest(request) {
                            @Override
                            public void reset() {
                            }
                        };
                    }

                    @Override
                    public HttpServletResponse getFirewalledResponse(HttpServletResponse response) {
                        return response;
                    }
                });
            }
        };
    }

    @EventListener(ApplicationReadyEvent.class)
    void warnWhenOff(ApplicationReadyEvent ready) {
        if (!ready.getApplicationContext().getBean(SecurityMode.class).on()) {
            log.warn("""

                    ************************************************************************************
                    *  SECURITY IS OFF: no schedsim.security.api-keys configured. Anyone who reaches    *
                    *  this service may submit, read, cancel and delete every simulation and read the  *
                    *  metrics. Configure API keys (README, "Security") before sharing it.             *
                    ************************************************************************************""");
        }
    }
}
