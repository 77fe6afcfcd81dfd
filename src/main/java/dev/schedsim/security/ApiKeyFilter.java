package dev.schedsim.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads the API key of a request ({@code Authorization: Bearer <secret>}, or {@code X-API-Key: <secret>}) and
 * makes its client the request's authentication. No key: the request goes on unauthenticated (the open paths
 * answer, the others 401). A key that matches none: 401 at once, on every path — a wrong credential is never
 * silently ignored.
 */
final class ApiKeyFilter extends OncePerRequestFilter {
    static final String HEADER = "X-API-Key";
    private static final String BEARER = "Bearer ";

    private final ApiKeys keys;
    private final ProblemResponses problems;

    ApiKeyFilter(ApiKeys keys, ProblemResponses problems) {
        this.keys = keys;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (SecurityContextHolder.getContext().getAuthentication() != null) {
            // An OAuth2 access token, authenticated by the resource server before this filter.
            chain.doFilter(request, response);
            return;
        }
        String secret = secret(request);
        if (secret != null) {
            Optional<ApiKeys.Key> key = keys.match(secret);
            if (key.isEmpty()) {
                request.setAttribute(ProblemResponses.WRONG_ATTRIBUTE, Boolean.TRUE);
                problems.commence(request, response, new BadCredentialsException("no such key"));
                return;
            }
            Client client = new Client(key.get().name(), key.get().role());
            PreAuthenticatedAuthenticationToken auth = new PreAuthenticatedAuthenticationToken(client, null,
                    List.of(new SimpleGrantedAuthority("ROLE_" + client.role().role())));
            SecurityContext context = SecurityContextHolder.createEmptyContext();
            context.setAuthentication(auth);
            SecurityContextHolder.setContext(context);
        }
        chain.doFilter(request, response);
    }

    /** The presented secret, or null when the request carries none. */
    static String secret(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return authorization.substring(BEARER.length()).strip();
        }
        if (authorization != null && !authorization.isBlank()) {
            // Another scheme (Basic …): not a key of ours, and not to be ignored either.
            return authorization;
        }
        String header = request.getHeader(HEADER);
        return header == null || header.isBlank() ? null : header.strip();
    }
}
