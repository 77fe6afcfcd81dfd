package dev.schedsim.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Health and readiness keep request threads of their own: every other request holds one of at most
 * {@code server.tomcat.threads.max - schedsim.reserved-threads} permits while it is served, and one more is
 * answered 503 at once. So when slow clients or slow work (a large report read slowly, uploads up to
 * schedsim.max-body-reads) hold every other thread, {@code /actuator/health/**} still finds one, and an
 * orchestrator does not restart a service that is only busy. The first filter of all, before security: an
 * unauthenticated flood counts too.
 */
@Configuration(proxyBeanMethods = false)
class ReservedThreadsFilter {
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> reservedThreads(
            @Value("${server.tomcat.threads.max:200}") int threads,
            @Value("${schedsim.reserved-threads:8}") int reserved) {
        int permits = Math.max(1, threads - Math.max(0, reserved));
        FilterRegistrationBean<OncePerRequestFilter> bean = new FilterRegistrationBean<>(new Permits(permits));
        bean.setOrder(Ordered.HIGHEST_PRECEDENCE);
        bean.addUrlPatterns("/*");
        return bean;
    }

    static final class Permits extends OncePerRequestFilter {
        private final Semaphore permits;
        private final int max;

        Permits(int max) {
            this.max = max;
            this.permits = new Semaphore(max);
        }

        @Override
        protected boolean shouldNotFilter(HttpServletRequest request) {
            String path = request.getRequestURI();
            return path.equals("/actuator/health") || path.startsWith("/actuator/health/");
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if (!permits.tryAcquire()) {
                busy(request, response);
                return;
            }
            try {
                chain.doFilter(request, response);
            } finally {
                permits.release();
            }
        }

        private void busy(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String detail = max + " requests are being served already (server.tomcat.threads.max less "
                    + "schedsim.reserved-threads, kept for health); retry in a moment";
            response.setStatus(503);
            response.setHeader("Retry-After", "1");
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getOutputStream().write(("{\"type\":\"" + ProblemHandlers.BASE + "busy\",\"title\":\"Busy "
                    + "serving requests\",\"status\":503,\"detail\":\"" + detail + "\",\"instance\":\""
                    + request.getRequestURI().replaceAll("[^A-Za-z0-9/._~-]", "") + "\"}")
                    .getBytes(StandardCharsets.UTF_8));
        }
    }
}
