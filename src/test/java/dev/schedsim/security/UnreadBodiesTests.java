package dev.schedsim.security;

import dev.schedsim.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 36 item 1, with security on and a pool of 4 request threads: bodies the service will not read (a GET
 * announcing one, a POST refused before its body is read) are answered at once with their problem bodies intact
 * (the security layer's 401/403 types, not the container's http-401) and their connections closed, instead of
 * Tomcat waiting on the request thread for the rest. The body timeout is a minute here, so that before this a
 * swallowed body held its thread for the whole test.
 */
class UnreadBodiesTests {
    static final String READ_KEY = "reader-read-secret-00001";

    static ConfigurableApplicationContext ctx;
    static int port;

    @BeforeAll
    static void start() {
        ctx = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:unread-bodies;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.warmup=0s",
                "schedsim.security.api-keys=reader:" + READ_KEY + ":read", "schedsim.body-timeout=60s",
                "server.tomcat.threads.max=4", "server.tomcat.threads.min-spare=1",
                // (no threads kept for health: what is shown is that unread bodies hold none)
                "schedsim.reserved-threads=0"));
        port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        ctx.close();
    }

    static String post(String path, String auth) {
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\n" + auth + "Content-Type: application/json\r\n"
                + "Content-Length: 100000\r\n\r\n{";
    }

    @Test
    void anUnauthenticatedPostKeepsItsProblemBodyAndIsNotSwallowed() throws IOException {
        String[] got = answerAndClose(post("/api/v1/simulations", ""));
        assertThat(got[0]).startsWith("HTTP/1.1 401").contains("https://schedsim.dev/problems/unauthorized")
                .contains("send an API key").contains("Connection: close");
        assertThat(got[1]).isEqualTo("closed");
    }

    @Test
    void aForbiddenPostKeepsItsProblemBodyAndIsNotSwallowed() throws IOException {
        String[] got = answerAndClose(post("/api/v1/simulations", "X-API-Key: " + READ_KEY + "\r\n"));
        assertThat(got[0]).startsWith("HTTP/1.1 403").contains("https://schedsim.dev/problems/forbidden")
                .contains("key 'reader' may not POST");
        assertThat(got[1]).isEqualTo("closed");
    }

    @Test
    void aHealthCheckWithABodyIsRefusedUnread() throws IOException {
        String[] got = answerAndClose("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000"
                + "\r\n\r\n{");
        assertThat(got[0]).startsWith("HTTP/1.1 400").contains("application/problem+json")
                .contains("a GET request takes no body");
        assertThat(got[1]).isEqualTo("closed");
    }

    /**
     * Sixteen clients (four times the pool) that announce 100 000 bytes and send one, on paths that never read
     * them: each is answered and closed, and health answers while all sixteen still hold their sockets open.
     */
    @Test
    void healthAnswersWhileManyUnreadBodiesAreOpen() throws IOException {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                Socket s = new Socket("localhost", port);
                s.setSoTimeout(30_000);
                String request = i % 2 == 0 ? post("/api/v1/simulations", "")
                        : "GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n{";
                s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                slow.add(s);
            }
            for (Socket s : slow) {
                String[] got = RawHttp.readToEnd(s);
                assertThat(got[0]).matches("(?s)HTTP/1.1 (401|400) .*");
                assertThat(got[1]).isEqualTo("closed");
            }
            String[] health = answerAndClose("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close"
                    + "\r\n\r\n");
            assertThat(health[0]).startsWith("HTTP/1.1 200").contains("UP");
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    private static String[] answerAndClose(String request) throws IOException {
        return RawHttp.answerAndClose(port, request);
    }
}
