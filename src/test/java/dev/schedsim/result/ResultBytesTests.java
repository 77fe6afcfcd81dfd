package dev.schedsim.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.engine.Report;
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
 * the same reports. A stored result never changes its form without this test saying so.
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

    @Test
    void aStoredDocumentReadsBackToTheSameBytes() {
        for (String name : new String[] {"sweep-result.json", "single-result.json"}) {
            assertThat(ResultJson.write(ResultJson.read(resource(name)))).isEqualTo(resource(name));
        }
    }
}
