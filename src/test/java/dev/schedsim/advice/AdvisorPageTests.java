package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.reports.ReportRenderer;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * GET /advisor serves the page with every objective preset to pick, in the report's style, and outside the API's
 * contract; the examples it comes filled with are accepted by POST /api/v1/advice as its script sends them (so an
 * API change that broke them fails here, not in front of a user). The page driven in a real browser, with
 * security on: scripts/advisor-check.py (CI).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:advisorpage;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=1", "schedsim.poll-interval=20ms",
        "schedsim.advice.poll-interval=20ms"})
class AdvisorPageTests extends ServiceTest {
    private String page() {
        HttpResponse<String> r = http.get("/advisor");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        return r.body();
    }

    private static String textarea(String page, String id) {
        Matcher m = Pattern.compile("<textarea id=\"" + id + "\"[^>]*>(.*?)</textarea>", Pattern.DOTALL)
                .matcher(page);
        assertThat(m.find()).as("textarea " + id).isTrue();
        return m.group(1);
    }

    @Test
    void thePageOffersEveryPresetInTheReportsStyleAndIsNoPartOfTheApi() {
        String page = page();
        for (ObjectivePreset p : ObjectivePreset.values()) {
            assertThat(page).contains("<option value=\"" + p.id + "\"");
        }
        assertThat(page).contains(ReportRenderer.STYLE, "fetch(\"/api/v1/advice\"")
                .doesNotContain("<!--PRESETS-->", "/*REPORT_STYLE*/");
        assertThat(http.get("/v3/api-docs").body()).doesNotContain("\"/advisor\"");
    }

    @Test
    void theExamplesThePageComesWithAreAcceptedAsItsScriptSendsThem() {
        String page = page();
        ObjectNode pod = Http.JSON.createObjectNode();
        ObjectNode k = pod.putObject("kubernetes");
        k.put("pod", textarea(page, "pod")); // (YAML: the script sends it as its text)
        k.putObject("topology").put("preset", "validation-2c");
        k.set("workloads", Http.JSON.readTree(textarea(page, "workloads")));
        pod.put("durationMs", 1000);
        pod.putObject("objective").put("preset", "throttled-10pct");
        JsonNode a = accepted(pod);
        assertThat(a.path("request").path("container").asString()).isEqualTo("web");
        assertThat(a.path("request").path("cgroup").asString()).startsWith("/kubepods/burstable/pod").endsWith("/web");
        assertThat(a.path("request").path("search").path("quotaUs").path("min").asLong()).isEqualTo(25_000); // 250m

        ObjectNode observed = Http.JSON.createObjectNode();
        observed.set("observed", Http.JSON.readTree(textarea(page, "observed")));
        observed.put("threads", 3);
        observed.putObject("topology").put("preset", "validation-2c");
        observed.putObject("objective").put("maxThrottledPeriodsPct", 5);
        assertThat(accepted(observed).path("request").path("objective").path("maxThrottledPeriodsPct").asDouble())
                .isEqualTo(5);
    }

    /** Accepted (then cancelled: what such advice answers is AdviceApplyTests' and AdviceObservedTests'). */
    private JsonNode accepted(ObjectNode body) {
        HttpResponse<String> r = http.post("/api/v1/advice", body.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode a = Http.json(r);
        http.post("/api/v1/advice/" + a.path("id").asString() + "/cancel", "");
        return a;
    }
}
