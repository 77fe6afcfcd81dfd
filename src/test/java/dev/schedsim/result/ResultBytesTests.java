package dev.schedsim.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.api.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The result document's bytes are pinned: from the engine reports in {@code src/test/resources/results}, the
 * builder must write exactly the documents stored next to them, which the untyped builder of 2026-11-30 wrote from
 * the same reports (2026-12-01: the scheduler block's wakeupMigrations and newidlePulls added to both, nothing else
 * changed). A stored result never changes its form without this test saying so.
 */
class ResultBytesTests {
    private static final JsonMapper REPORTS = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    static String resource(String name) {
        try (var in = ResultBytesTests.class.getResourceAsStream("/results/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<List<Report>> reports(String name) {
        return REPORTS.readValue(resource(name), new TypeReference<List<List<Report>>>() { });
    }

    @Test
    void aSweepOfTwoVariantsAndThreeRepetitionsIsWrittenByteForByte() {
        String json = ResultJson.write(ResultBuilder.build(7, List.of("base", "heavier"),
                reports("sweep-reports.json")));
        assertThat(json).isEqualTo(resource("sweep-result.json"));
    }

    @Test
    void aSingleRunIsWrittenByteForByte() {
        String json = ResultJson.write(ResultBuilder.build(3, List.of("default"), reports("single-reports.json")));
        assertThat(json).isEqualTo(resource("single-result.json"));
    }

    /**
     * The cAdvisor block (issue 22) is added after every other field of a variant: with it removed, a document is
     * the pinned bytes; with it, each cgroup's counters are its cpu.stat in cAdvisor's units.
     */
    @Test
    void theCadvisorBlockLeavesEveryOtherByteAsPinned() {
        List<List<Report>> reports = reports("sweep-reports.json");
        ResultDocument doc = ResultBuilder.build(7, List.of("base", "heavier"), reports, new ResultBuilder.Cadvisor(
                java.util.Map.of(), List.of(java.util.Set.of(), java.util.Set.of())));
        tools.jackson.databind.JsonNode tree = JsonMapper.builder().build().readTree(ResultJson.write(doc));
        tools.jackson.databind.JsonNode block = tree.path("variants").get(0).path("cadvisor");
        assertThat(block.size()).isEqualTo(doc.variants().get(0).cgroups().size());
        assertThat(block.get(0).path("container_cpu_usage_seconds_total").asDouble())
                .isCloseTo(doc.variants().get(0).cgroups().get(0).cpuStat().usageUsec() / 1e6,
                        org.assertj.core.api.Assertions.within(0.5e-6)); // a mean of repetitions, to the µs
        assertThat(block.get(0).has("container_cpu_cfs_periods_total")).as("no quota, no CFS counters").isFalse();
        String stripped = ResultJson.write(new ResultDocument(doc.variants().stream().map(v -> new ResultDocument.Variant(
                v.label(), v.repetitions(), v.seeds(), v.simulatedUs(), v.events(), v.cgroups(), v.workloads(),
                v.cpus(), v.scheduler(), v.runs(), v.timeSeries())).toList(), doc.comparison()));
        assertThat(stripped).isEqualTo(resource("sweep-result.json"));
        assertThat(ResultJson.write(ResultJson.read(ResultJson.write(doc)))).as("the block reads back")
                .isEqualTo(ResultJson.write(doc));
    }

    @Test
    void aStoredDocumentReadsBackToTheSameBytes() {
        // (single-result-2026-12-01.json: a document stored before the migration paths, wakeupMigrations and
        // newidlePulls, were added to the scheduler block)
        for (String name : new String[] {"sweep-result.json", "single-result.json", "single-result-2026-12-01.json"}) {
            assertThat(ResultJson.write(ResultJson.read(resource(name)))).isEqualTo(resource(name));
        }
    }
}
