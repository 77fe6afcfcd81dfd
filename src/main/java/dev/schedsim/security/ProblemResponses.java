package dev.schedsim.security;

import dev.schedsim.json.Json;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.node.ObjectNode;

/**
 * 401 and 403 as {@code application/problem+json}, the way every other error of the API is written (same type
 * URIs, title, status, detail, instance). 401 carries {@code WWW-Authenticate: Bearer} (never Basic: no browser
 * password dialog), and neither is ever a redirect to a login page.
 */
final class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {
    static final String BASE = "https://schedsim.dev/problems/";

    /** Why a request is not authenticated: no credential, or one that is no configured key. */
    static final String MISSING = "send an API key: Authorization: Bearer <secret> or X-API-Key: <secret> "
            + "(keys are configured in schedsim.security.api-keys)";
    static final String WRONG = "the API key is not valid: it matches none of schedsim.security.api-keys";
    static final String WRONG_TOKEN = "the credential is not valid: it is no configured API key, nor a valid "
            + "access token of the configured issuer (signature, expiry, audience)";
    static final String WRONG_ATTRIBUTE = ProblemResponses.class.getName() + ".wrong";

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"schedsim\"");
        String detail = request.getAttribute(WRONG_ATTRIBUTE) != null ? WRONG
                : e instanceof org.springframework.security.authentication.InsufficientAuthenticationException
                ? MISSING : WRONG_TOKEN;
        write(request, response, 401, "unauthorized", "Unauthorized", detail);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        String who = request.getUserPrincipal() == null ? "this key" : "key '" + request.getUserPrincipal().getName()
                + "'";
        write(request, response, 403, "forbidden", "Forbidden", who + " may not " + request.getMethod() + " "
                + request.getRequestURI().replaceAll("[^A-Za-z0-9/._~-]", "") + ": " + needs(request));
    }

    private static String needs(HttpServletRequest request) {
        String uri = request.getRequestURI();
        if (uri.startsWith("/actuator")) {
            return "it needs an admin key (or the management port, management.server.port)";
        }
        if (request.getUserPrincipal() instanceof org.springframework.security.core.Authentication a
                && a.getAuthorities().isEmpty()) {
            return "the credential has no role (read, submit or admin; for a token: a schedsim:<role> scope)";
        }
        return "it needs a submit or admin key (read keys may only GET)";
    }

    static void write(HttpServletRequest request, HttpServletResponse response, int status, String type,
                      String title, String detail) throws IOException {
        ObjectNode p = Json.STORED.createObjectNode();
        p.put("type", BASE + type);
        p.put("title", title);
        p.put("status", status);
        p.put("detail", detail);
        p.put("instance", request.getRequestURI().replaceAll("[^A-Za-z0-9/._~-]", ""));
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getOutputStream().write(Json.STORED.writeValueAsBytes(p));
    }
}
