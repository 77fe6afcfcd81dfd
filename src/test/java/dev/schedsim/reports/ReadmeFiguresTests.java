package dev.schedsim.reports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The README's first simulation, as a user would run it: its request (taken from the README's curl command)
 * submitted to the real service, and every figure the README quotes from the answer (the report's verdict
 * lines, cpu.stat's nr_periods, nr_throttled and throttled_usec) compared with what the service answers. When
 * the engine moves a figure, this fails and names it: update the README with the new one.
 */
class ReadmeFiguresTests {
    private static final Path README = Path.of("README.md");

    @Test
    void theFirstSimulationAnswersWhatTheReadmeSays() throws IOException {
        String readme = Files.readString(README);
        String section = section(readme, "## A first simulation");
        Matcher body = Pattern.compile("-d '(\\{.*?\\})' \\| jq", Pattern.DOTALL).matcher(section);
        assertThat(body.find()).as("the README's first curl -d '…' | jq").isTrue();
        Matcher quoted = Pattern.compile("what held it back:\\s*```\\s*\\n(.*?)```", Pattern.DOTALL)
                .matcher(section);
        assertThat(quoted.find()).as("the README's quoted report lines").isTrue();

        try (ConfigurableApplicationContext c = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:readme;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.poll-interval=20ms"))) {
            Http http = EndToEnd.http(c);
            String id = EndToEnd.submit(http, body.group(1));
            assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");
            int port = ((WebServerApplicationContext) c).getWebServer().getPort();
            String markdown = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                    + "/api/v1/simulations/" + id + "/report")).header("Accept", "text/markdown").GET()).body();
            for (String line : quoted.group(1).split("\\n(?=- )")) {
                assertThat(oneLine(markdown)).as("README report line").contains(oneLine(line));
            }
            JsonNode b = cgroup(Http.json(http.get("/api/v1/simulations/" + id + "/result")), "/b");
            assertThat(figure(section, "`nr_periods (\\d+)`", "`nr_periods N`"))
                    .isEqualTo(b.path("nrPeriods").asLong());
            assertThat(figure(section, "`nr_throttled (\\d+)`", "`nr_throttled N`"))
                    .isEqualTo(b.path("nrThrottled").asLong());
            assertThat(figure(section, "`throttled_usec` ([0-9 ]*[0-9])", "`throttled_usec` N"))
                    .isEqualTo(b.path("throttledUsec").asLong());
        }
    }

    /** From the heading to the next heading of the same level. */
    private static String section(String text, String heading) {
        int from = text.indexOf(heading);
        assertThat(from).as(heading).isGreaterThanOrEqualTo(0);
        int to = text.indexOf("\n## ", from + heading.length());
        return text.substring(from, to < 0 ? text.length() : to);
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }

    private static long figure(String text, String regex, String what) {
        Matcher m = Pattern.compile(regex).matcher(text.replaceAll("\\s+", " "));
        assertThat(m.find()).as("the README quotes " + what).isTrue();
        return Long.parseLong(m.group(1).replace(" ", ""));
    }

    private static JsonNode cgroup(JsonNode result, String path) {
        for (JsonNode c : result.path("variants").path(0).path("cgroups")) {
            if (path.equals(c.path("path").asString())) {
                return c.path("cpuStat");
            }
        }
        throw new AssertionError("no cgroup " + path + " in " + result);
    }
}
