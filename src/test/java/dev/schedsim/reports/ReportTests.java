package dev.schedsim.reports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The report page end to end: content negotiation (HTML by default, Markdown on request, 406 otherwise), 404 and
 * 409, the kernel-posting comparison, SVG plots from the stored time series, and the same bytes after a restart.
 */
class ReportTests {
    @TempDir
    Path dir;

    private static HttpResponse<String> get(Http http, int port, String path, String accept) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET();
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b);
    }

    private static int port(ConfigurableApplicationContext c) {
        return ((org.springframework.boot.web.server.context.WebServerApplicationContext) c).getWebServer().getPort();
    }

    @Test
    void reportNegotiatesRendersTheComparisonAndPlotsAndSurvivesARestart() {
        List<String> properties = List.of(
                "spring.datasource.url=jdbc:h2:file:" + dir.resolve("schedsim").toAbsolutePath() + ";AUTO_SERVER=FALSE",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms");
        String id;
        String html;
        String markdown;
        try (ConfigurableApplicationContext c = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(c);
            int port = port(c);
            HttpResponse<String> run = http.post("/api/v1/scenarios/seed-001-return-runtime-fix/run",
                    "{ \"repetitions\": 2, \"durationMs\": 1000 }");
            assertThat(run.statusCode()).as(run.body()).isEqualTo(202);
            id = Http.json(run).path("id").asString();
            String path = "/api/v1/simulations/" + id + "/report";
            HttpResponse<String> early = get(http, port, path, "text/markdown");
            if (early.statusCode() != 200) {
                assertThat(early.statusCode()).isEqualTo(409);
            }
            assertThat(http.awaitFinished(id).path("status").asString()).isEqualTo("SUCCEEDED");

            HttpResponse<String> h = get(http, port, path, null);
            assertThat(h.statusCode()).isEqualTo(200);
            assertThat(h.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
            html = h.body();
            assertThat(html).contains("<svg", "<polyline", "CPU occupancy, bug", "Throttled time per",
                    "baseline[pct imp](std%)", "RETURN_RUNTIME_FIX[pct imp](std%)", "1.00 [  0.00](");
            assertThat(get(http, port, path, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
                    .body()).isEqualTo(html);
            assertThat(get(http, port, path, "*/*").body()).isEqualTo(html);

            HttpResponse<String> m = get(http, port, path, "text/markdown");
            assertThat(m.statusCode()).isEqualTo(200);
            assertThat(m.headers().firstValue("Content-Type").orElse("")).startsWith("text/markdown");
            markdown = m.body();
            assertThat(markdown).contains("# SchedSim report: seed-001-return-runtime-fix", "## Comparison",
                    "cgroups./g.nrThrottled", "| /g |", "Busy CPUs over time").doesNotContain("<svg");
            assertThat(markdown).containsPattern("cgroups\\./g\\.nrThrottled +1\\.00 \\[  0\\.00\\]\\( *[0-9.]+\\) +"
                    + "[0-9]\\.[0-9]{2} \\[[ +-][ 0-9.]{5}\\]\\( *[0-9.]+\\)");

            // A throttled cgroup leads to what to set: the advice body the report gives is accepted as it is.
            assertThat(markdown).contains("What to set for /g: `POST /api/v1/advice` with");
            assertThat(html).contains("What to set for /g: <code>POST /api/v1/advice</code>");
            int from = markdown.indexOf("```json\n", markdown.indexOf("What to set for /g")) + 8;
            String adviceBody = markdown.substring(from, markdown.indexOf("\n```", from));
            // and the HTML's link to /advisor carries the same body, as the page reads it (decodeURIComponent)
            int href = html.indexOf("href=\"/advisor#request=") + "href=\"/advisor#request=".length();
            assertThat(java.net.URLDecoder.decode(html.substring(href, html.indexOf('"', href)),
                    java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(adviceBody);
            HttpResponse<String> advice = http.post("/api/v1/advice", adviceBody);
            assertThat(advice.statusCode()).as(advice.body()).isEqualTo(202);
            assertThat(Http.json(advice).path("request").path("cgroup").asString()).isEqualTo("/g");

            HttpResponse<String> json = get(http, port, path, "application/json");
            assertThat(json.statusCode()).isEqualTo(406);
            assertThat(get(http, port, "/api/v1/simulations/no-such-id/report", "text/html").statusCode())
                    .isEqualTo(404);

            String queued = EndToEnd.submit(http, EndToEnd.longRun("report-409"));
            assertThat(get(http, port, "/api/v1/simulations/" + queued + "/report", "text/markdown").statusCode())
                    .isEqualTo(409);
            http.cancel(queued);
            assertThat(get(http, port, "/api/v1/simulations/" + queued + "/report", null).statusCode())
                    .isEqualTo(409);
        }
        try (ConfigurableApplicationContext c = EndToEnd.start(properties)) {
            Http http = EndToEnd.http(c);
            String path = "/api/v1/simulations/" + id + "/report";
            assertThat(get(http, port(c), path, null).body()).isEqualTo(html);
            assertThat(get(http, port(c), path, "text/markdown").body()).isEqualTo(markdown);
        }
    }

    @Test
    void cellsPrintLikeKernelPostings() {
        assertThat(KernelComparison.cell(1.0, 0.0, 4.78)).isEqualTo("1.00 [  0.00]( 4.78)");
        assertThat(KernelComparison.cell(0.99, 1.0, 6.45)).isEqualTo("0.99 [ +1.00]( 6.45)");
        assertThat(KernelComparison.cell(0.88, 12.0, 22.77)).isEqualTo("0.88 [+12.00](22.77)");
        assertThat(KernelComparison.cell(1.11, -11.0, 24.21)).isEqualTo("1.11 [-11.00](24.21)");
        assertThat(KernelComparison.cell(null, null, null)).isEqualTo(" n/a [   n/a](  n/a)");
    }
}
