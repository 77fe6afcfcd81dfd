package dev.schedsim.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 36 item 2 on the real Tomcat: a total deadline on request headers (each read alone waits up to the
 * connection timeout, 10 s here, so a byte every 200 ms kept a connection as long as the client liked), and a
 * bound on the connections one address holds.
 */
class ConnectionGuardsTests {
    private static ConfigurableApplicationContext ctx;
    private static int port;

    @BeforeAll
    static void start() {
        ctx = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:connection-guards;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.warmup=0s",
                "server.tomcat.connection-timeout=10s", "schedsim.connections.header-timeout=2s",
                "schedsim.connections.max-per-address=3"));
        port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        ctx.close();
    }

    /** 100 header bytes at one each 200 ms (20 s in all): the server closes it well before the last. */
    @Test
    void aHeaderTrickleIsClosedAtTheHeaderDeadline() throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(60_000);
            CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> readToEnd(s));
            OutputStream out = s.getOutputStream();
            out.write("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                    .getBytes(StandardCharsets.US_ASCII));
            int sent = 0;
            try {
                for (; sent < 100 && !answer.isDone(); sent++) {
                    out.write('a');
                    out.flush();
                    Thread.sleep(200);
                }
            } catch (SocketException e) {
                // closed by the server while we were still sending: what is expected
            }
            assertThat(answer.get()).as("nothing answered, the connection closed").isEqualTo("closed:");
            assertThat(sent).as("header bytes sent before the close").isLessThan(100);
        }
    }

    /** Three idle connections from this address: a fourth is answered 429 and closed; one closed, one more fits. */
    @Test
    void anAddressBeyondItsConnectionsIsRefused() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                held.add(new Socket("localhost", port));
            }
            String refused = health();
            assertThat(refused).startsWith("closed:HTTP/1.1 429").contains("schedsim.connections.max-per-address");
            held.remove(0).close();
            String answered = refused;
            // (the server counts the closed one down once its poller sees the close)
            for (int i = 0; i < 100 && !answered.startsWith("closed:HTTP/1.1 200"); i++) {
                Thread.sleep(50);
                answered = health();
            }
            assertThat(answered).startsWith("closed:HTTP/1.1 200");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static String health() throws IOException {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            return readToEnd(s);
        }
    }

    /** "closed:" and what was answered, once the server closes; "open:" if 60 s pass first. */
    private static String readToEnd(Socket s) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        String end = "closed:";
        try {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) != -1) {
                got.write(buf, 0, n);
            }
        } catch (java.net.SocketTimeoutException e) {
            end = "open:";
        } catch (IOException e) {
            // reset: closed
        }
        return end + got.toString(StandardCharsets.UTF_8);
    }
}
