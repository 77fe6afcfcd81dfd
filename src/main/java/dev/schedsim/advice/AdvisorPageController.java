package dev.schedsim.advice;

import dev.schedsim.reports.ReportController;
import dev.schedsim.reports.ReportRenderer;
import dev.schedsim.reports.Svg;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /advisor}: a page to ask the advisor from. It holds no data of anyone's (so it is open when security is
 * on, like Swagger UI): its script posts to {@code POST /api/v1/advice} with the key typed into it, follows the
 * advice and shows its report and what to apply. Hidden from the OpenAPI document: it is a page, not an API.
 */
@RestController
@Hidden
class AdvisorPageController {
    private final String page;

    AdvisorPageController() {
        StringBuilder options = new StringBuilder();
        for (ObjectivePreset p : ObjectivePreset.values()) {
            options.append("<option value=\"").append(Svg.esc(p.id)).append('"')
                    .append(p == ObjectivePreset.THROTTLED_10PCT ? " selected" : "").append('>').append(Svg.esc(p.id))
                    .append(": at most ").append((int) p.maxThrottledPeriodsPct).append(" % of periods throttled")
                    .append("</option>\n");
        }
        // (the report's own style, so that the page and the report it embeds read as one)
        page = resource().replace("/*REPORT_STYLE*/", ReportRenderer.STYLE).replace("<!--PRESETS-->", options);
    }

    private static String resource() {
        try (InputStream in = AdvisorPageController.class.getResourceAsStream("/advice/advisor.html")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @GetMapping("/advisor")
    ResponseEntity<String> page() {
        return ResponseEntity.ok().contentType(ReportController.HTML).body(page);
    }
}
