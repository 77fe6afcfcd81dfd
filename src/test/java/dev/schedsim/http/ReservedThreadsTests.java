package dev.schedsim.http;

import dev.schedsim.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Health keeps threads of its own (issue 36: health answered even while the request pool is full). Four request
 * threads, two reserved: four slow uploads (a minute's body timeout) take two threads and two are answered 503 at
 * once; health then answers while every thread the API may have is held, and another API request gets 503.
 * Without the reservation the four uploads took all four threads and nothing else was answered.
 */
class ReservedThreadsTests {
    @Test
    void healthAnswersWhileEveryOtherThreadIsHeld() throws Exception {
        try (ConfigurableApplicationContext ctx = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:reserved-threads;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.warmup=0s",
                "server.tomcat.threads.max=4", "server.tomcat.threads.min-spare=1", "schedsim.reserved-threads=2",
                "schedsim.body-timeout=60s"))) {
            int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
            List<Socket> slow = new ArrayList<>();
            List<CompletableFuture<String>> answers = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Socket s = new Socket("localhost", port);
                    s.setSoTimeout(90_000);
                    s.getOutputStream().write(("POST /api/v1/simulations HTTP/1.1\r\nHost: localhost\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                            .getBytes(StandardCharsets.US_ASCII));
                    slow.add(s);
                    answers.add(CompletableFuture.supplyAsync(() -> readToEnd(s)));
                }
                // (two are answered at once; the other two wait for bodies that do not come)
                for (int i = 0; i < 600 && answers.stream().filter(CompletableFuture::isDone).count() < 2; i++) {
                    Thread.sleep(50);
                }
                List<String> answered = answers.stream().filter(CompletableFuture::isDone)
                        .map(CompletableFuture::join).toList();
                assertThat(answered).hasSize(2).allMatch(a -> a.startsWith("HTTP/1.1 503"), "503")
                        .allMatch(a -> a.contains("schedsim.reserved-threads"), "names the setting");
                assertThat(send(port, "GET /actuator/health")).startsWith("HTTP/1.1 200").contains("UP");
                assertThat(send(port, "GET /actuator/health/readiness")).startsWith("HTTP/1.1 200");
                assertThat(send(port, "GET /api/v1/simulations")).startsWith("HTTP/1.1 503");
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    private static String send(int port, String requestLine) throws IOException {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write((requestLine + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return readToEnd(s);
        }
    }

    /** What was answered, until the server closes or the socket's timeout. */
    private static String readToEnd(Socket s) {
        try {
            return RawHttp.readToEnd(s)[0];
        } catch (IOException e) {
            return "";
        }
    }
}
