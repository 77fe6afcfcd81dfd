package dev.schedsim.openapi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.schedsim.advice.AdviceAnswer;
import dev.schedsim.http.Problem;
import dev.schedsim.http.ProblemHandlers;
import dev.schedsim.result.ResultDocument;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * What springdoc cannot see in the code, made part of the document so that a generated client is typed:
 * <ul>
 * <li>every 4xx and 5xx answer is {@code application/problem+json} with the {@link Problem} schema (springdoc
 * gives an error response the operation's success schema, and {@code ProblemHandlers} answers all of them);</li>
 * <li>success bodies that springdoc lists as {@code *}{@code /*} (a mapping without {@code produces}) are
 * {@code application/json}, what they are;</li>
 * <li>the result document's and the advice answer's boxed numbers may be {@code null}: a mean is null when a run
 * lacks the figure, a non-finite value is written as null ({@code dev.schedsim.result.Num});</li>
 * <li>a reference that may be null is {@code anyOf} the reference and null.</li>
 * </ul>
 * Runs after the other customizers, so that it sees every response they add.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class ApiContract implements OpenApiCustomizer {
    static final String PROBLEM_JSON = "application/problem+json";
    static final String PROBLEM_SCHEMA = "#/components/schemas/ProblemDetail";

    @Override
    public void customise(OpenAPI api) {
        if (api.getPaths() != null) {
            for (PathItem path : api.getPaths().values()) {
                for (Operation op : path.readOperations()) {
                    if (op.getResponses() != null) {
                        op.getResponses().forEach(ApiContract::typeResponse);
                    }
                }
            }
        }
        if (api.getComponents() != null && api.getComponents().getSchemas() != null) {
            Map<String, Schema> schemas = api.getComponents().getSchemas();
            Set<Class<?>> seen = new HashSet<>();
            nullableNumbers(ResultDocument.class, schemas, seen);
            nullableNumbers(AdviceAnswer.class, schemas, seen);
            schemas.values().forEach(ApiContract::nullableReferences);
            schemas.values().forEach(ApiContract::choicesWithoutTheirType);
            // Jackson's JsonNode, which such a property is typed as in Java, is then no schema of the API (a property
            // still pointing at it would fail OpenApiContractTests' validation of the served bodies).
            schemas.remove("JsonNode");
        }
    }

    /**
     * A property declared as a choice of schemas ({@code anyOf}, as the scenario's request: a simulation's or an
     * advice's) keeps the choice alone: springdoc also writes its Java type's {@code $ref} beside it.
     */
    @SuppressWarnings("rawtypes")
    private static void choicesWithoutTheirType(Schema<?> schema) {
        if (schema.getProperties() == null) {
            return;
        }
        for (Schema p : schema.getProperties().values()) {
            if (p.get$ref() != null && p.getAnyOf() != null && !p.getAnyOf().isEmpty()) {
                p.set$ref(null);
            }
        }
    }

    private static void typeResponse(String code, ApiResponse response) {
        if (code.startsWith("4") || code.startsWith("5") || code.equals("default")) {
            MediaType problem = new MediaType().schema(new Schema<>().$ref(PROBLEM_SCHEMA));
            if (response.getContent() != null) {
                // keep the examples given (e.g. the 400 of a submission)
                response.getContent().values().stream().filter(m -> m.getExamples() != null).findFirst()
                        .ifPresent(m -> problem.setExamples(m.getExamples()));
            }
            response.setContent(new Content().addMediaType(PROBLEM_JSON, problem));
            return;
        }
        if (response.getContent() != null && response.getContent().containsKey("*/*")) {
            Content typed = new Content();
            response.getContent().forEach((type, media) -> typed.addMediaType(
                    type.equals("*/*") ? org.springframework.http.MediaType.APPLICATION_JSON_VALUE : type, media));
            response.setContent(typed);
        }
    }

    /**
     * A reference that may be null ({@code @Schema(types = {"object", "null"})} on a record component, which
     * springdoc writes beside the {@code $ref}, where it would require the null to be the referenced object) is
     * {@code anyOf} the reference and null.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void nullableReferences(Schema<?> schema) {
        if (schema.getProperties() == null) {
            return;
        }
        for (Map.Entry<String, Schema> e : schema.getProperties().entrySet()) {
            Schema<?> p = e.getValue();
            if (p.get$ref() != null && p.getTypes() != null && p.getTypes().contains("null")) {
                Schema<?> choice = new Schema<>().description(p.getDescription());
                choice.setAnyOf(List.of(new Schema<>().$ref(p.get$ref()),
                        new Schema<>().types(new java.util.LinkedHashSet<>(List.of("null")))));
                e.setValue(choice);
            }
        }
    }

    /**
     * Marks the {@code Double} components of {@code type}'s records (and of the records they hold) as
     * {@code number | null} in their schemas; components left out when null ({@code NON_NULL}) stay as they are.
     */
    private static void nullableNumbers(Type type, Map<String, Schema> schemas, Set<Class<?>> seen) {
        if (type instanceof ParameterizedType p) {
            for (Type arg : p.getActualTypeArguments()) {
                nullableNumbers(arg, schemas, seen);
            }
            return;
        }
        if (!(type instanceof Class<?> c) || !c.isRecord() || !seen.add(c)) {
            return;
        }
        Schema<?> schema = schemas.get(schemaName(c));
        boolean allLeftOut = nonNull(c.getAnnotation(JsonInclude.class));
        for (RecordComponent rc : c.getRecordComponents()) {
            nullableNumbers(rc.getGenericType(), schemas, seen);
            boolean leftOut = allLeftOut || nonNull(field(c, rc.getName()).getAnnotation(JsonInclude.class));
            if (rc.getType() == Double.class && !leftOut && schema != null && schema.getProperties() != null) {
                Schema<?> property = schema.getProperties().get(jsonName(c, rc));
                if (property != null) {
                    property.addType("null");
                }
            }
        }
    }

    private static boolean nonNull(JsonInclude include) {
        return include != null && include.value() == JsonInclude.Include.NON_NULL;
    }

    private static java.lang.reflect.Field field(Class<?> c, String name) {
        try {
            return c.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String jsonName(Class<?> c, RecordComponent rc) {
        JsonProperty p = field(c, rc.getName()).getAnnotation(JsonProperty.class);
        return p != null && !p.value().isEmpty() ? p.value() : rc.getName();
    }

    /** The component name springdoc gives {@code c}: its {@code @Schema(name)}, else its simple name. */
    static String schemaName(Class<?> c) {
        io.swagger.v3.oas.annotations.media.Schema s = c.getAnnotation(io.swagger.v3.oas.annotations.media.Schema.class);
        return s != null && !s.name().isEmpty() ? s.name() : c.getSimpleName();
    }
}
