package dev.schedsim.security;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code schedsim.security.*}. Security is on as soon as one API key is configured, or an OAuth2 resource server
 * ({@code spring.security.oauth2.resourceserver.jwt.*}): see {@link SecurityMode}.
 *
 * @param apiKeys               {@code name:secret:role} each; the secret may be {@code {sha256}<64 hex digits>};
 *                              the name is the client: the owner of what its keys submit (several keys may share
 *                              a name, e.g. a read key for a dashboard next to the submit key)
 * @param maxQueuedPerClient    queued runs one client may have (429 beyond); null or 0: no per-client limit
 * @param submissionsPerMinute  submissions one client may make in any 60 s (429 beyond); null or 0: no limit
 * @param maxQueuedEventsPerClient the estimated engine events (dev.schedsim.request.CostEstimate) of the runs one
 *                              client may have queued (429 beyond): its queued work in what it costs, where
 *                              maxQueuedPerClient counts runs of any size; null or 0: no limit
 * @param jwtNameClaim          with an OAuth2 resource server: the token claim that names the client (sub)
 * @param jwtRoleClaim          the claim that holds the role (read, submit, admin; a string or a list); null:
 *                              the scopes schedsim:read, schedsim:submit, schedsim:admin
 */
@ConfigurationProperties("schedsim.security")
public record ApiSecurityProperties(List<String> apiKeys, Long maxQueuedPerClient, Integer submissionsPerMinute,
                                    String jwtNameClaim, String jwtRoleClaim, Long maxQueuedEventsPerClient) {
    public ApiSecurityProperties {
        jwtNameClaim = jwtNameClaim == null || jwtNameClaim.isBlank() ? "sub" : jwtNameClaim;
        jwtRoleClaim = jwtRoleClaim == null || jwtRoleClaim.isBlank() ? null : jwtRoleClaim;
        apiKeys = apiKeys == null ? List.of() : apiKeys.stream().map(String::strip).filter(s -> !s.isEmpty())
                .toList();
        maxQueuedPerClient = maxQueuedPerClient == null || maxQueuedPerClient < 0 ? 0L : maxQueuedPerClient;
        maxQueuedEventsPerClient = maxQueuedEventsPerClient == null || maxQueuedEventsPerClient < 0 ? 0L
                : maxQueuedEventsPerClient;
        submissionsPerMinute = submissionsPerMinute == null || submissionsPerMinute < 0 ? 0 : submissionsPerMinute;
    }

    public boolean enabled() {
        return !apiKeys.isEmpty();
    }
}
