package dev.schedsim.http;

import dev.schedsim.RawHttp;
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

    /** The deadline is on headers only: a connection idle between two requests is kept (as clients' pools expect). */
    @Test
    void aKeptAliveConnectionIdleBetweenRequestsIsKept() throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            byte[] request = "GET /actuator/health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII);
            s.getOutputStream().write(request);
            assertThat(readResponse(s.getInputStream())).startsWith("HTTP/1.1 200");
            Thread.sleep(3_000); // past the 2 s header deadline, within the 10 s keep-alive
            s.getOutputStream().write(request);
            assertThat(readResponse(s.getInputStream())).startsWith("HTTP/1.1 200");
        }
    }

    /** Nor on bodies (schedsim.body-timeout has them): a body sent over 3 s after its headers is read and accepted. */
    @Test
    void aSlowBodyAfterItsHeadersIsNotCutByTheHeaderDeadline() throws Exception {
        byte[] body = ContainerErrorsTests.BODY.getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /api/v1/simulations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Connection: close\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            int step = (body.length + 5) / 6;
            for (int i = 0; i < body.length; i += step) {
                out.write(body, i, Math.min(step, body.length - i));
                out.flush();
                Thread.sleep(500);
            }
            assertThat(readToEnd(s)).startsWith("closed:HTTP/1.1 202");
        }
    }

    /** One response's status line and headers, and as much of its body as Content-Length says. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return "closed:" + head.toString(StandardCharsets.US_ASCII);
            }
            head.write(b);
        }
        String h = head.toString(StandardCharsets.US_ASCII);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(h);
        if (m.find()) {
            in.readNBytes(Integer.parseInt(m.group(1)));
        } else if (h.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked")) {
            // chunks until the last (size 0)
            while (true) {
                String size = line(in);
                int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                in.readNBytes(n + 2);
                if (n == 0) {
                    break;
                }
            }
        }
        return h;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    private static String health() throws IOException {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            return readToEnd(s);
        }
    }

    /** "closed:" and what was answered, once the server closes; "open:" if the socket's timeout passes first. */
    private static String readToEnd(Socket s) {
        try {
            String[] r = RawHttp.readToEnd(s);
            return r[1] + ":" + r[0];
        } catch (IOException e) {
            return "closed:";
        }
    }
}
