package dev.schedsim.security;

import java.util.Collection;
import java.util.List;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;

/**
 * OAuth2/OIDC access tokens (JWT) as clients, next to the API keys: the client's name is a claim
 * ({@code schedsim.security.jwt-name-claim}, default {@code sub}), its role the highest of {@code read},
 * {@code submit}, {@code admin} found in the token's scopes as {@code schedsim:<role>}, or in the claim
 * {@code schedsim.security.jwt-role-claim} (a string or a list) when that is set. A token with none of them is
 * authenticated with no role (403 on the API). The client is the same {@link Client} an API key gives, so
 * ownership and limits do not know which way it came.
 */
final class JwtClients implements Converter<Jwt, AbstractAuthenticationToken> {
    static final String SCOPE_PREFIX = "schedsim:";
    private final String nameClaim;
    private final String roleClaim;

    JwtClients(String nameClaim, String roleClaim) {
        this.nameClaim = nameClaim;
        this.roleClaim = roleClaim;
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        String name = jwt.getClaimAsString(nameClaim);
        boolean named = name != null && !name.isBlank();
        // No name, no client: authenticated, but with no role. The owner column holds 64 characters: a longer
        // name (an e-mail, a URL) is owned under a digest of it, the same for every token of that name.
        Role role = named ? role(jwt) : null;
        Client client = new Client(!named ? "?" : name.length() <= 64 ? name
                : "sha256-" + java.util.HexFormat.of().formatHex(ApiKeys.sha256(name)).substring(0, 40), role);
        return new PreAuthenticatedAuthenticationToken(client, jwt, role == null ? List.of()
                : List.of(new SimpleGrantedAuthority("ROLE_" + role.role())));
    }

    private Role role(Jwt jwt) {
        Collection<String> values;
        String prefix;
        if (roleClaim != null) {
            Object claim = jwt.getClaims().get(roleClaim);
            values = claim instanceof Collection<?> c ? c.stream().map(String::valueOf).toList()
                    : claim == null ? List.of() : List.of(claim.toString().split(" "));
            prefix = "";
        } else {
            Object scopes = jwt.getClaims().getOrDefault("scope", jwt.getClaims().get("scp"));
            values = scopes instanceof Collection<?> c ? c.stream().map(String::valueOf).toList()
                    : scopes == null ? List.of() : List.of(scopes.toString().split(" "));
            prefix = SCOPE_PREFIX;
        }
        Role best = null;
        for (String v : values) {
            for (Role r : Role.values()) {
                if (v.equalsIgnoreCase(prefix + r.name()) && (best == null || r.ordinal() > best.ordinal())) {
                    best = r;
                }
            }
        }
        return best;
    }

    /**
     * The bearer tokens Spring's resource server reads: an {@code Authorization: Bearer} value that is no API key
     * (those are {@link ApiKeyFilter}'s); an X-API-Key header is never a token.
     */
    static BearerTokenResolver tokens(ApiKeys keys) {
        DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
        return request -> {
            String token = bearer.resolve(request);
            return token == null || keys.match(token).isPresent() ? null : token;
        };
    }
}
