package dev.schedsim.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Stored result documents still render as they did: the documents in {@code src/test/resources/results} (written
 * by the untyped builder of 2026-11-30) give, page for page, the Markdown and HTML the untyped renderer of that day
 * made of them.
 */
class RenderedDocumentTests {
    private static String resource(String name) {
        try (var in = RenderedDocumentTests.class.getResourceAsStream("/results/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void storedDocumentsRenderAsBefore() {
        for (String n : new String[] {"sweep", "single"}) {
            ReportRenderer r = new ReportRenderer("00000000-fixture-" + n, "fixture-" + n,
                    resource(n + "-request.json"), resource(n + "-result.json"));
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
        String md = new ReportRenderer("id", "early", resource("single-request.json"), old).markdown();
        assertThat(md).contains("## Variant default").contains("| w | 5 | - | 1 |").doesNotContain("Busy CPUs over");
    }
}
