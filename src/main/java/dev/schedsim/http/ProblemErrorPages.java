package dev.schedsim.http;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors that never reach a controller are problem+json too: the servlet container's error page ({@code /error}:
 * a TRACE request, an error raised in a filter) replaces Spring Boot's default JSON, and Tomcat's own error
 * report valve (errors before the servlet: see {@link ProblemErrorReportValve}) its HTML page. Tomcat's upload
 * timeout is set here too: a body read waits at most schedsim.body-timeout; and the connector's protocol, whose
 * endpoint bounds header time and connections per address ({@link GuardedEndpoint}).
 */
@Configuration(proxyBeanMethods = false)
class ProblemErrorPages {
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> tomcatErrorsAndUploadTimeout(
            dev.schedsim.SchedsimProperties properties) {
        int bodyTimeoutMs = (int) Math.min(Integer.MAX_VALUE, properties.bodyTimeout().toMillis());
        return factory -> {
            factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                }
            });
            // (outside the host, so that it sees each answer complete: see the valve)
            factory.addEngineValves(new UnreadBodyValve());
            // A body read waits at most schedsim.body-timeout (Tomcat's default keeps the connection timeout,
            // 60 s, for every read of a slow upload).
            factory.setProtocol(GuardedHttp11Protocol.class.getName());
            factory.addConnectorCustomizers(connector -> {
                if (connector.getProtocolHandler() instanceof org.apache.coyote.http11.AbstractHttp11Protocol<?> p) {
                    p.setDisableUploadTimeout(false);
                    p.setConnectionUploadTimeout(bodyTimeoutMs);
                }
                if (connector.getProtocolHandler() instanceof GuardedHttp11Protocol g) {
                    g.setHeaderTimeoutMs(properties.connections().headerTimeout().toMillis());
                    g.setMaxConnectionsPerAddress(properties.connections().maxPerAddress());
                }
                // No body is read but by RequestReader (bounded in size and time): not as form parameters either.
                connector.setParseBodyMethods("");
            });
        };
    }

    /** {@code /error}: what the container forwards an error to (not an operation of the API). */
    @io.swagger.v3.oas.annotations.Hidden
    @RestController
    static class ProblemErrorController implements ErrorController {
        @RequestMapping("/error")
        ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
            Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
            int status = code instanceof Integer i && i >= 400 ? i : 500;
            HttpStatus s = HttpStatus.resolve(status);
            HttpStatus known = s == null ? HttpStatus.INTERNAL_SERVER_ERROR : s;
            String slug = ProblemHandlers.typeOf(status);
            String detail = status >= 500 ? "an unexpected error occurred; it was logged"
                    : status == 408 ? "the request did not arrive in time (its body: schedsim.body-timeout)"
                    : known.getReasonPhrase();
            ProblemDetail p = ProblemHandlers.problem(known, slug, known.getReasonPhrase(), detail);
            if (request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri) {
                p.setInstance(java.net.URI.create(uri.replaceAll("[^A-Za-z0-9/._~-]", "")));
            }
            return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
        }
    }
}
