package dev.schedsim.reports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.spec.CgroupSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Stored result documents render page for page as the pages beside them: the documents in
 * {@code src/test/resources/results} (written by the untyped builder of 2026-11-30) and the Markdown and HTML of
 * today's layout (2026-12-01: verdicts, units, grouped digits). A deliberate change of the layout rewrites the pages
 * (run with {@code -Dreport.rewrite=true}, then read the diff); any other change of them is a regression.
 */
class RenderedDocumentTests {
    private static String resource(String name) {
        try (var in = RenderedDocumentTests.class.getResourceAsStream("/results/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fixtures' cgroups as their plan has them: both fixtures vary only the kernel. */
    static Map<String, Map<String, CgroupSpec>> limits(String... labels) {
        Map<String, CgroupSpec> byPath = new LinkedHashMap<>();
        byPath.put("/a", new CgroupSpec("/a", 300_000, 100_000, 50_000, 100));
        byPath.put("/b", CgroupSpec.unlimited("/b", 100));
        Map<String, Map<String, CgroupSpec>> out = new LinkedHashMap<>();
        for (String l : labels) {
            out.put(l, byPath);
        }
        return out;
    }

    @Test
    void storedDocumentsRenderAsTheirPages() throws IOException {
        for (String n : new String[] {"sweep", "single"}) {
            ReportRenderer r = new ReportRenderer("00000000-fixture-" + n, "fixture-" + n,
                    resource(n + "-request.json"), resource(n + "-result.json"), limits("default", "base", "heavier"));
            if (Boolean.getBoolean("report.rewrite")) {
                Path dir = Path.of("src/test/resources/results");
                Files.writeString(dir.resolve(n + "-report.md"), r.markdown());
                Files.writeString(dir.resolve(n + "-report.html"), r.html());
                continue; // (the classpath still has the old pages: run again to compare)
            }
            assertThat(r.markdown()).as(n + " Markdown").isEqualTo(resource(n + "-report.md"));
            assertThat(r.html()).as(n + " HTML").isEqualTo(resource(n + "-report.html"));
        }
    }

    @Test
    void aDocumentWithoutTheNewerFieldsStillRenders() {
        // An early document: no timeSeries, no newidle costs, no requestLatencyUs.
        String old = "{\"variants\":[{\"label\":\"default\",\"repetitions\":1,\"seeds\":[1],\"simulatedUs\":1000,"
                + "\"events\":10,\"cgroups\":[{\"path\":\"/\",\"cpuStat\":{\"usageUsec\":5,\"nrPeriods\":0,"
                + "\"nrThrottled\":0,\"throttledUsec\":0,\"nrBursts\":0,\"burstUsec\":0}}],\"workloads\":[{\"name\":"
                + "\"w\",\"cpuUsec\":5,\"completionUs\":null,\"throughputPerSec\":1,\"wakeupLatencyUs\":{\"p50\":0,"
                + "\"p90\":0,\"p99\":0,\"p999\":0,\"max\":0,\"count\":0},\"contextSwitches\":1,\"migrations\":0,"
                + "\"wakeups\":0}],\"cpus\":{\"busyPct\":1,\"idlePct\":99,\"overheadPct\":0,\"avgPowerWatts\":1.5,"
                + "\"perCpuBusyPct\":[1]},\"scheduler\":{\"contextSwitches\":1,\"migrations\":0,\"wakeups\":0}}]}";
        String md = new ReportRenderer("id", "early", resource("single-request.json"), old, Map.of()).markdown();
        assertThat(md).contains("## Variant default").contains("| w | 5 µs | – | 1 /s |")
                .doesNotContain("Busy CPUs over");
    }
}
