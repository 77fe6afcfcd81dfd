package dev.schedsim.http;

import dev.schedsim.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Errors answered before or around Spring's controllers, sent as raw HTTP to the real Tomcat (MockMvc never
 * reaches it): each is problem+json with a status of its own and no Java names, never Tomcat's HTML page or
 * Spring Boot's default JSON (issue 19, item 5).
 */
class ContainerErrorsTests {
    private static ConfigurableApplicationContext ctx;
    private static int port;

    @BeforeAll
    static void start() {
        ctx = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:container-errors;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.warmup=0s",
                "schedsim.body-timeout=3s", "schedsim.max-body-reads=2",
                // The oversized header below is sent on purpose: Tomcat logs the first such parse error at INFO
                // with its stack trace, which a green build should not print.
                "logging.level.org.apache.coyote.http11.Http11Processor=warn"));
        port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        ctx.close();
    }

    static final String BODY = "{\"topology\":{\"preset\":\"validation-2c\"},\"workloads\":[{\"name\":\"w\","
            + "\"type\":\"cpu-bound\"}],\"durationMs\":10}";

    static Stream<Arguments> requests() {
        String a = "a".repeat(20_000);
        return Stream.of(
                Arguments.of("URL over the limit", "GET /api/v1/simulations/" + a + " HTTP/1.1\r\n\r\n", 400),
                Arguments.of("header over the limit", "GET /api/v1/simulations HTTP/1.1\r\nX-Big: " + a + "\r\n\r\n",
                        400),
                Arguments.of("NUL in the path", "GET /api/v1/simulations/%00 HTTP/1.1\r\n\r\n", 400),
                Arguments.of("encoded slash in the path", "GET /api/v1/simulations/a%2Fb HTTP/1.1\r\n\r\n", 400),
                Arguments.of("TRACE", "TRACE /api/v1/simulations HTTP/1.1\r\n\r\n", 405),
                Arguments.of("malformed chunk", "POST /api/v1/simulations HTTP/1.1\r\nContent-Type: application/json"
                        + "\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n", 400),
                Arguments.of("a body that is not JSON", "POST /api/v1/simulations HTTP/1.1\r\nContent-Type: text/plain"
                        + "\r\nContent-Length: " + BODY.length() + "\r\n\r\n" + BODY, 415),
                Arguments.of("query bytes that are not UTF-8", "GET /api/v1/simulations?name=%FF%FE HTTP/1.1\r\n\r\n",
                        400),
                Arguments.of("page offset beyond an int", "GET /api/v1/simulations?page=2147483647&size=100 HTTP/1.1"
                        + "\r\n\r\n", 400));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void answeredAsAProblem(String label, String request, int status) throws IOException {
        String response = send(request.replaceFirst("\r\n", "\r\nHost: localhost\r\nConnection: close\r\n"));
        assertThat(response).as(label).startsWith("HTTP/1.1 " + status);
        String head = response.substring(0, Math.max(0, response.indexOf("\r\n\r\n"))).toLowerCase();
        assertThat(head).as(label + ": " + response).contains("content-type: application/problem+json");
        assertThat(response).as(label).contains("\"status\":" + status).contains("https://schedsim.dev/problems/")
                .doesNotContain("<html").doesNotContain("Exception").doesNotContain("org.apache")
                .doesNotContain("java.");
    }

    /**
     * A client that sends its headers and then trickles its body (slowloris): answered 408 once the body timeout
     * is over, instead of holding a request thread until it is done.
     */
    @org.junit.jupiter.api.Test
    void aBodyThatDoesNotArriveIsAnsweredRequestTimeout() throws IOException {
        String head = "POST /api/v1/simulations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\nConnection: close\r\n\r\n{\"name\":";
        String response = send(head);
        assertThat(response).startsWith("HTTP/1.1 408");
        assertThat(response.toLowerCase()).contains("content-type: application/problem+json");
        assertThat(response).contains("https://schedsim.dev/problems/request-timeout").contains("schedsim.body-timeout");
    }

    /**
     * Slow uploads hold at most schedsim.max-body-reads request threads: with two bodies trickling in, a third
     * submission is answered 503 at once, and health is served meanwhile (250 slow uploads used to take every
     * thread, health included).
     */
    @org.junit.jupiter.api.Test
    void slowUploadsCannotTakeEveryThread() throws Exception {
        String head = "POST /api/v1/simulations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n{";
        try (Socket a = new Socket("localhost", port); Socket b = new Socket("localhost", port)) {
            a.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            b.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            String third = null;
            // (until both are being read by the server: the third is accepted before that)
            for (int i = 0; i < 200 && (third == null || !third.startsWith("HTTP/1.1 503")); i++) {
                third = send("POST /api/v1/simulations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + BODY.length() + "\r\n\r\n" + BODY);
            }
            assertThat(third).startsWith("HTTP/1.1 503").contains("https://schedsim.dev/problems/busy")
                    .contains("schedsim.max-body-reads");
            String health = send("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertThat(health).startsWith("HTTP/1.1 200");
        }
    }

    /**
     * A body the service will not read is refused, not swallowed (issue 36 item 1: 250 such requests trickling a
     * byte a second held every request thread): a GET announcing one is answered 400 without reading it, a POST
     * refused before its body is read is answered and its connection closed. Both answers end with the server
     * closing the connection while the client still owes 99 999 bytes (before, Tomcat waited for them).
     */
    @org.junit.jupiter.api.Test
    void aBodyTheServiceWillNotReadIsRefusedNotSwallowed() throws Exception {
        String[] get = answerAndClose("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000"
                + "\r\n\r\n{");
        assertThat(get[0]).startsWith("HTTP/1.1 400").contains("application/problem+json");
        assertThat(get[1]).isEqualTo("closed");
        String[] post = answerAndClose("POST /api/v1/simulations/nope/cancel HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{");
        assertThat(post[0]).startsWith("HTTP/1.1 404").contains("no simulation nope").doesNotContain("Not Found");
        assertThat(post[1]).isEqualTo("closed");
    }

    private static String[] answerAndClose(String request) throws IOException {
        return RawHttp.answerAndClose(port, request);
    }

    private static String send(String request) throws IOException {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = in.read(buf)) != -1) {
                    got.write(buf, 0, n);
                }
            } catch (SocketTimeoutException | java.net.SocketException e) {
                // What arrived is the answer (Tomcat may reset after a bad request).
            }
            return got.toString(StandardCharsets.UTF_8);
        }
    }
}
