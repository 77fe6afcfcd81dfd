package dev.schedsim.json;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.Arrays;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.NamedType;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The service's JSON formats, each with the one mapper that reads and writes it, so that a document is read back
 * with the options it was written with. Writing is the same in all of them (Jackson's defaults: record
 * components in order); they differ in what they accept:
 * <ul>
 *   <li>{@link #REQUEST}: what clients send. Strict: unknown fields, duplicate keys, trailing content, fractions
 *       where integers belong and null for primitives are rejected, so a typo such as {@code "cpumax"} is a 400
 *       rather than an unlimited group. The accepted request, stored on the job, is written with it too.</li>
 *   <li>{@link #STORED}: what the service wrote itself and reads back: engine reports, result documents, advice
 *       rows, problems. A report's mean of no samples is NaN, which Jackson writes as the token {@code NaN}, so
 *       non-numeric numbers are accepted; fields a newer version added are ignored.</li>
 *   <li>{@link #PLAN}: {@link #STORED} plus the names of the workload kinds ({@code "@kind": "Periodic"}), for
 *       the typed plan stored with each job.</li>
 *   <li>{@link #YAML}: a request sent as YAML ({@code Content-Type: application/yaml}), turned into JSON text
 *       that {@link #REQUEST} then reads like any.</li>
 * </ul>
 */
public final class Json {
    public static final JsonMapper REQUEST = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    public static final JsonMapper STORED = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    public static final JsonMapper PLAN = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addMixIn(WorkloadSpec.Kind.class, KindByName.class)
            .registerSubtypes(Arrays.stream(WorkloadSpec.Kind.class.getPermittedSubclasses())
                    .map(c -> new NamedType(c, c.getSimpleName())).toArray(NamedType[]::new))
            .build();

    public static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private Json() {
    }

    /** A document the service stores or serves, as JSON text. */
    public static String write(Object value) {
        return STORED.writeValueAsString(value);
    }

    /** A document the service wrote itself ({@link #STORED}). */
    public static <T> T read(String json, Class<T> type) {
        return STORED.readValue(json, type);
    }

    /** A document the service wrote itself, as a tree. */
    public static JsonNode tree(String json) {
        return STORED.readTree(json);
    }

    /** The workload kinds of a plan are a sealed interface: each record by its simple name. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "@kind")
    private interface KindByName {
    }
}
