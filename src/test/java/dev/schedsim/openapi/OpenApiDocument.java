package dev.schedsim.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.schedsim.Http;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The served OpenAPI document, and JSON checked against its schemas by a JSON Schema validator (draft 2020-12, the
 * dialect of OpenAPI 3.1): a schema of the document is validated as the root of a copy that carries the
 * document's {@code components}, so that its {@code $ref}s resolve.
 */
final class OpenApiDocument {
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    final JsonNode doc;

    private OpenApiDocument(JsonNode doc) {
        this.doc = doc;
    }

    /** {@code /v3/api-docs} without {@code servers} (springdoc writes the address it was asked on). */
    static OpenApiDocument served(Http http) {
        ObjectNode doc = (ObjectNode) Http.json(http.get("/v3/api-docs"));
        doc.remove("servers");
        return new OpenApiDocument(doc);
    }

    JsonNode schemas() {
        return doc.path("components").path("schemas");
    }

    /** The schema of {@code method path}'s answer {@code status} in {@code contentType}; fails if undocumented. */
    JsonNode responseSchema(String method, String path, int status, String contentType) {
        JsonNode response = doc.path("paths").path(path).path(method.toLowerCase(java.util.Locale.ROOT))
                .path("responses").path(Integer.toString(status));
        assertThat(response.isMissingNode()).as(method + " " + path + " documents no " + status).isFalse();
        JsonNode media = response.path("content").path(contentType);
        assertThat(media.isMissingNode()).as(method + " " + path + " " + status + " documents no " + contentType
                + " but " + response.path("content").propertyNames()).isFalse();
        return media.path("schema");
    }

    /** What is wrong with {@code instance} against {@code schema} (a schema of the document); empty when valid. */
    List<String> violations(JsonNode schema, JsonNode instance) {
        ObjectNode root = schema.isObject() ? ((ObjectNode) schema).deepCopy() : Http.JSON.createObjectNode();
        root.set("components", doc.path("components"));
        List<String> out = new ArrayList<>();
        for (Error e : SCHEMAS.getSchema(root).validate(instance)) {
            out.add(e.getInstanceLocation() + ": " + e.getMessage());
        }
        return out;
    }

    /**
     * Checks an answer of the service against the document: its status is documented for {@code method path}
     * (the path as the document writes it, with {@code {id}}), in its content type, and a JSON body validates
     * against that schema. Returns the body.
     */
    JsonNode check(String method, String path, HttpResponse<String> r) {
        String type = r.headers().firstValue("Content-Type").orElse("").split(";")[0].trim();
        JsonNode schema = responseSchema(method, path, r.statusCode(), type);
        JsonNode body = type.endsWith("json") ? Http.JSON.readTree(r.body()) : Http.JSON.getNodeFactory()
                .stringNode(r.body());
        assertThat(violations(schema, body)).as(method + " " + path + " " + r.statusCode() + " " + type + ": "
                + abbreviate(r.body())).isEmpty();
        return body;
    }

    /** Every property schema of every component, with where it is ({@code Schema.property}). */
    void eachProperty(BiConsumer<String, JsonNode> each) {
        schemas().properties().forEach(s -> s.getValue().path("properties").properties()
                .forEach(p -> each.accept(s.getKey() + "." + p.getKey(), p.getValue())));
    }

    static String abbreviate(String s) {
        return s.length() <= 600 ? s : s.substring(0, 600) + "…";
    }
}
