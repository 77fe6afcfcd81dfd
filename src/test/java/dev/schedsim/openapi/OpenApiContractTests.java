package dev.schedsim.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.advice.AdviceExamples;
import dev.schedsim.advice.AdviceRequest;
import dev.schedsim.advice.AdviceView;
import dev.schedsim.queue.SimulationControl;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.result.ResultJson;
import dev.schedsim.simulations.SimulationExamples;
import dev.schedsim.simulations.SimulationView;
import dev.schedsim.topologies.TopologyExamples;
import io.swagger.v3.oas.annotations.Operation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The OpenAPI document is the contract a generated client is built from (issue 20, item 1): the committed copy
 * the build generates the test client from is the served document; no JSON document is typed as a string; what
 * the service answers, error or not, validates against the schema the document gives for that status and
 * content type; every example validates against its schema; a stored result is served byte for byte; and each
 * schema name stands for one record. The long runs here fail on a small event budget, for a FAILED view.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:contract;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms",
        "schedsim.progress-interval=50ms", "schedsim.advice.poll-interval=20ms",
        "schedsim.limits.max-events=20000000", "schedsim.max-body-size=256KB"})
class OpenApiContractTests extends ServiceTest {
    static final Path COMMITTED = Path.of("src/test/resources/openapi.json");

    @Autowired
    SimulationControl simulations;
    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;
    OpenApiDocument api;

    @BeforeEach
    void servedDocument() {
        api = OpenApiDocument.served(http);
    }

    /**
     * The build generates the test client (OpenApiClientTests) from src/test/resources/openapi.json, so it must be
     * what the service serves. After an API change: {@code ./mvnw test -Dtest=OpenApiContractTests
     * -Dopenapi.write=true} writes it anew (then review the diff and commit it).
     */
    @Test
    void theCommittedDocumentIsTheServedOne() throws Exception {
        String served = Http.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(api.doc) + "\n";
        if (Boolean.getBoolean("openapi.write")) {
            Files.writeString(COMMITTED, served);
        }
        JsonNode committed = Http.JSON.readTree(Files.readString(COMMITTED));
        if (!committed.equals(api.doc)) {
            Path now = Path.of("target/openapi.json");
            Files.writeString(now, served);
            throw new AssertionError(COMMITTED + " is not the served /v3/api-docs (written to " + now + "); run "
                    + "./mvnw test -Dtest=OpenApiContractTests -Dopenapi.write=true and commit the file");
        }
    }

    /** The fields that hold JSON documents have their records' schemas, and every JSON body has an object schema. */
    @Test
    void noJsonDocumentIsTypedAsAString() {
        JsonNode schemas = api.schemas();
        assertThat(schemas.has("JsonNode")).as("Jackson's JsonNode is no schema of the API").isFalse();
        Map<String, String> documents = new TreeMap<>(Map.of(
                "SimulationView.request", "SimulationRequest", "SimulationView.result", "ResultDocument",
                "SimulationView.error", "ProblemDetail", "AdviceView.request", "AcceptedAdvice",
                "AdviceView.error", "ProblemDetail", "AcceptedAdvice.request", "SimulationRequest"));
        documents.forEach((field, schema) -> {
            String[] f = field.split("\\.");
            assertThat(schemas.path(f[0]).path("properties").path(f[1]).path("$ref").asString()).as(field)
                    .isEqualTo("#/components/schemas/" + schema);
        });
        // A scenario's request is a simulation's or (kind advice) an advice's.
        List<String> choices = new ArrayList<>();
        schemas.path("Scenario").path("properties").path("request").path("anyOf")
                .forEach(c -> choices.add(c.path("$ref").asString()));
        assertThat(choices).as("Scenario.request").containsExactly("#/components/schemas/SimulationRequest",
                "#/components/schemas/AdviceRequest");
        for (String field : List.of("KubernetesRequest.pod", "Kubernetes.pod", "WorkloadRequest.rtApp")) {
            String[] f = field.split("\\.");
            assertThat(schemas.path(f[0]).path("properties").path(f[1]).path("type").asString()).as(field)
                    .isEqualTo("object");
        }
        // Every property says what it holds: a type, a reference or a choice of schemas.
        List<String> untyped = new ArrayList<>();
        api.eachProperty((where, p) -> {
            if (!p.has("type") && !p.has("$ref") && !p.has("anyOf") && !p.has("oneOf")) {
                untyped.add(where);
            }
        });
        assertThat(untyped).as("properties without a type").isEmpty();
        // JSON bodies (answers and requests) are objects or arrays, never strings.
        List<String> stringBodies = new ArrayList<>();
        api.doc.path("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            List<JsonNode> contents = new ArrayList<>();
            op.getValue().path("responses").forEach(r -> contents.add(r.path("content")));
            contents.add(op.getValue().path("requestBody").path("content"));
            for (JsonNode content : contents) {
                content.properties().forEach(m -> {
                    JsonNode schema = m.getValue().path("schema");
                    boolean choiceOfRecords = schema.has("anyOf") && schema.path("anyOf").size() > 0;
                    for (JsonNode c : schema.path("anyOf")) {
                        choiceOfRecords &= c.has("$ref");
                    }
                    if (m.getKey().endsWith("json") && !schema.has("$ref") && !choiceOfRecords
                            && !schema.path("type").asString().equals("array")) {
                        stringBodies.add(op.getKey() + " " + path.getKey() + " " + m.getKey());
                    }
                });
            }
        }));
        assertThat(stringBodies).as("JSON bodies without an object or array schema").isEmpty();
        // Every error answer is a problem.
        api.doc.path("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> op.getValue()
                .path("responses").properties().forEach(r -> {
                    if (r.getKey().compareTo("400") >= 0) {
                        assertThat(r.getValue().path("content").propertyNames()).as(op.getKey() + " " + path.getKey()
                                + " " + r.getKey()).containsExactly("application/problem+json");
                        assertThat(r.getValue().path("content").path("application/problem+json").path("schema")
                                .path("$ref").asString()).isEqualTo("#/components/schemas/ProblemDetail");
                    }
                })));
    }

    private String submit(String body) {
        HttpResponse<String> r = http.post("/api/v1/simulations", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return api.check("POST", "/api/v1/simulations", r).path("id").asString();
    }

    private HttpResponse<String> get(String path, String accept) {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).header("Accept", accept)
                .GET());
    }

    /**
     * Every kind of answer the document describes, from real requests: the request examples run to the end (a
     * sweep of variants with repetitions, a pod, rt-app with a trace, an ftrace import), the list, the result, both
     * traces, the reports, an advice, the topologies, profiles and scenarios, a cancelled and a FAILED simulation,
     * and the errors 400, 404, 406, 409, 413 and 422 — each against its schema.
     */
    @Test
    void servedBodiesValidateAgainstTheirSchemas() {
        List<String> ids = new ArrayList<>();
        String cancelled = simulationsToTheEnd(ids);
        advicesToTheEnd();
        whatTheServiceKnows();
        errors(ids.get(0), cancelled);
    }

    /**
     * The examples and a sweep run to the end (their ids into {@code ids}), one simulation cancelled and one FAILED;
     * each one's answers checked. Returns the cancelled one's id.
     */
    private String simulationsToTheEnd(List<String> ids) {
        for (String example : List.of(SimulationExamples.SIMULATION, SimulationExamples.VARIANTS, SimulationExamples.KUBERNETES,
                SimulationExamples.RT_APP, SimulationExamples.FTRACE)) {
            ids.add(submit(example));
        }
        String sweep = submit("""
                { "name": "contract-sweep", "topology": { "preset": "validation-2c" },
                  "cgroups": [ { "path": "/a", "cpuMax": "50000 100000" } ],
                  "workloads": [ { "name": "w", "cgroup": "/a", "type": "periodic", "threads": 2, "runUs": 500,
                                   "sleepUs": 1500 } ],
                  "durationMs": 300, "repetitions": 2,
                  "sweep": { "cgroup": "/a", "quotaUs": { "from": 20000, "to": 40000, "step": 20000 } } }""");
        ids.add(sweep);
        String cancelled = submit(EndToEnd.longRun("contract-cancel"));
        api.check("POST", "/api/v1/simulations/{id}/cancel", http.post("/api/v1/simulations/" + cancelled
                + "/cancel", ""));
        String failing = submit(EndToEnd.longRun("contract-fail"));
        for (String id : ids) {
            http.awaitFinished(id);
            JsonNode done = api.check("GET", "/api/v1/simulations/{id}", http.get("/api/v1/simulations/" + id));
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            api.check("GET", "/api/v1/simulations/{id}/result", http.get("/api/v1/simulations/" + id + "/result"));
            api.check("GET", "/api/v1/simulations/{id}/report", get("/api/v1/simulations/" + id + "/report",
                    "text/markdown"));
            api.check("GET", "/api/v1/simulations/{id}/metrics", http.get("/api/v1/simulations/" + id + "/metrics"));
        }
        String traced = ids.get(3);
        JsonNode chrome = api.check("GET", "/api/v1/simulations/{id}/trace", http.get("/api/v1/simulations/"
                + traced + "/trace"));
        assertThat(chrome.path("traceEvents").size()).isPositive();
        api.check("GET", "/api/v1/simulations/{id}/trace", http.get("/api/v1/simulations/" + traced
                + "/trace?format=ftrace"));
        http.awaitFinished(failing);
        JsonNode failed = api.check("GET", "/api/v1/simulations/{id}", http.get("/api/v1/simulations/" + failing));
        assertThat(failed.path("status").asString()).as(failed.toString()).isEqualTo("FAILED");
        assertThat(failed.path("error").path("limit").asString()).isEqualTo("schedsim.limits.max-events");
        assertThat(api.check("GET", "/api/v1/simulations/{id}", http.get("/api/v1/simulations/" + cancelled))
                .path("status").asString()).isEqualTo("CANCELLED");
        api.check("GET", "/api/v1/simulations", http.get("/api/v1/simulations?size=100"));
        api.check("GET", "/api/v1/simulations", http.get("/api/v1/simulations?status=FAILED"));
        return cancelled;
    }

    /** An advice and an advice from observed counters, to the end, with their reports. */
    private void advicesToTheEnd() {
        adviceToTheEnd(AdviceExamples.ADVICE);
        JsonNode observed = adviceToTheEnd(AdviceExamples.ADVICE_OBSERVED);
        assertThat(observed.path("observed").path("quotaUs").path("max").isNumber()).isTrue();
    }

    /** Submits an advice, checks each answer until it ends SUCCEEDED and then its report; returns the last answer. */
    private JsonNode adviceToTheEnd(String body) {
        String adviceId = api.check("POST", "/api/v1/advice", http.post("/api/v1/advice", body)).path("id")
                .asString();
        JsonNode answered = null;
        for (int i = 0; i < 6000; i++) {
            answered = api.check("GET", "/api/v1/advice/{id}", http.get("/api/v1/advice/" + adviceId));
            if (!answered.path("status").asString().matches("QUEUED|RUNNING")) {
                break;
            }
            sleep();
        }
        assertThat(answered.path("status").asString()).as(answered.toString()).isEqualTo("SUCCEEDED");
        api.check("GET", "/api/v1/advice/{id}/report", get("/api/v1/advice/" + adviceId + "/report", "text/html"));
        return answered;
    }

    /** What the service knows: presets, saved topologies, kernel profiles, scenarios. */
    private void whatTheServiceKnows() {
        api.check("GET", "/api/v1/topologies/presets", http.get("/api/v1/topologies/presets"));
        api.check("GET", "/api/v1/topologies/presets/{name}", http.get("/api/v1/topologies/presets/validation-2c"));
        api.check("POST", "/api/v1/topologies", http.post("/api/v1/topologies", TopologyExamples.TOPOLOGY));
        api.check("GET", "/api/v1/topologies", http.get("/api/v1/topologies"));
        api.check("GET", "/api/v1/topologies/{name}", http.get("/api/v1/topologies/smt4-box"));
        api.check("GET", "/api/v1/kernel-profiles", http.get("/api/v1/kernel-profiles"));
        JsonNode scenarios = api.check("GET", "/api/v1/scenarios", http.get("/api/v1/scenarios"));
        api.check("GET", "/api/v1/scenarios/{name}", http.get("/api/v1/scenarios/"
                + scenarios.get(0).path("name").asString()));
    }

    /** The errors 400, 404, 406, 409, 413 and 422; last, the finished simulation {@code done} deleted (204). */
    private void errors(String done, String cancelled) {
        HttpResponse<String> invalid = http.post("/api/v1/simulations", SimulationExamples.SIMULATION
                .replace("\"cpu-bound\", \"threads\": 2 },", "\"cpu\", \"threads\": 2 },")
                .replace("\"cpuWeight\": 200", "\"cpuWeight\": 0"));
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(api.check("POST", "/api/v1/simulations", invalid).path("errors").size()).isEqualTo(2);
        assertThat(api.check("POST", "/api/v1/simulations", http.post("/api/v1/simulations", "{ \"durationMs\": "))
                .path("status").asInt()).isEqualTo(400);
        HttpResponse<String> tooLong = http.post("/api/v1/simulations", SimulationExamples.SIMULATION
                .replace("\"durationMs\": 2000", "\"durationMs\": 700000"));
        assertThat(tooLong.statusCode()).isEqualTo(422);
        api.check("POST", "/api/v1/simulations", tooLong);
        HttpResponse<String> tooLarge = http.post("/api/v1/simulations", "{\"name\": \"" + "x".repeat(300_000)
                + "\"}");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        api.check("POST", "/api/v1/simulations", tooLarge);
        api.check("GET", "/api/v1/simulations/{id}", http.get("/api/v1/simulations/no-such-id"));
        api.check("GET", "/api/v1/simulations/{id}/result", http.get("/api/v1/simulations/" + cancelled
                + "/result"));
        api.check("GET", "/api/v1/simulations/{id}/report", get("/api/v1/simulations/" + done + "/report",
                "image/png"));
        api.check("POST", "/api/v1/simulations/{id}/cancel", http.post("/api/v1/simulations/" + done
                + "/cancel", ""));
        api.check("GET", "/api/v1/simulations", http.get("/api/v1/simulations?size=0"));
        api.check("POST", "/api/v1/topologies", http.post("/api/v1/topologies", TopologyExamples.TOPOLOGY
                .replace("smt4-box", "validation-2c")));
        api.check("GET", "/api/v1/advice/{id}", http.get("/api/v1/advice/no-such-id"));
        HttpResponse<String> deleted = http.delete("/api/v1/simulations/" + done);
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(api.doc.path("paths").path("/api/v1/simulations/{id}").path("delete").path("responses")
                .path("204").has("content")).isFalse();
    }

    /** Request, answer, parameter and property examples all validate against the schemas they illustrate. */
    @Test
    void examplesValidateAgainstTheirSchemas() {
        Map<String, List<String>> wrong = new TreeMap<>();
        int[] checked = {0};
        api.doc.path("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            String where = op.getKey() + " " + path.getKey();
            List<JsonNode> contents = new ArrayList<>();
            contents.add(op.getValue().path("requestBody").path("content"));
            op.getValue().path("responses").forEach(r -> contents.add(r.path("content")));
            for (JsonNode content : contents) {
                content.properties().forEach(m -> m.getValue().path("examples").properties().forEach(e -> {
                    JsonNode value = e.getValue().path("value");
                    if (m.getKey().equals("application/yaml")) {
                        value = YAMLMapper.builder().build().readTree(value.asString());
                    }
                    note(wrong, where + " " + m.getKey() + " example " + e.getKey(),
                            api.violations(m.getValue().path("schema"), value), checked);
                }));
            }
            for (JsonNode p : op.getValue().path("parameters")) {
                if (p.has("example")) {
                    JsonNode schema = p.path("schema");
                    JsonNode value = p.path("example");
                    if (value.isString() && schema.path("type").asString().equals("integer")) {
                        value = Http.JSON.getNodeFactory().numberNode(Long.parseLong(value.asString()));
                    }
                    note(wrong, where + " parameter " + p.path("name").asString(), api.violations(schema, value),
                            checked);
                }
            }
        }));
        api.eachProperty((where, p) -> {
            if (p.has("example") && !p.has("$ref")) {
                note(wrong, where, api.violations(p, p.path("example")), checked);
            }
        });
        assertThat(wrong).as("examples that do not validate").isEmpty();
        assertThat(checked[0]).as("examples checked").isGreaterThan(30);
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void note(Map<String, List<String>> wrong, String where, List<String> violations, int[] checked) {
        checked[0]++;
        if (!violations.isEmpty()) {
            wrong.put(where, violations);
        }
    }

    /**
     * A stored result is served as stored: the {@code result} of GET /api/v1/simulations/{id} is, byte for byte,
     * the document in the database, the body of GET .../result, and what the typed record writes when the
     * document is read into it (so the schema, which is that record's, describes those bytes).
     */
    @Test
    void aStoredResultIsServedByteForByte() {
        String id = submit(SimulationExamples.VARIANTS);
        http.awaitFinished(id);
        String view = http.get("/api/v1/simulations/" + id).body();
        String served = rawMember(view, "result");
        String stored = simulations.result(simulations.find(id).orElseThrow());
        assertThat(served).isEqualTo(stored);
        assertThat(http.get("/api/v1/simulations/" + id + "/result").body().getBytes(StandardCharsets.UTF_8))
                .isEqualTo(stored.getBytes(StandardCharsets.UTF_8));
        assertThat(ResultJson.write(ResultJson.read(served))).isEqualTo(served);
        assertThat(rawMember(view, "request")).isEqualTo(simulations.find(id).orElseThrow().getRequestJson());
    }

    /** The text of top-level member {@code name} of the JSON object {@code json}, exactly as it is there. */
    static String rawMember(String json, String name) {
        try (JsonParser p = Http.JSON.createParser(json)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String member = p.currentName();
                p.nextToken();
                int start = (int) p.currentTokenLocation().getCharOffset();
                p.skipChildren();
                if (member.equals(name)) {
                    return json.substring(start, (int) p.currentLocation().getCharOffset());
                }
            }
        }
        throw new AssertionError("no member " + name + " in " + OpenApiDocument.abbreviate(json));
    }

    /**
     * springdoc names a record's schema by its simple name (or its {@code @Schema(name)}), so two records of one
     * name would share a schema: each name stands for one record here, and that schema has the record's fields.
     */
    @Test
    void eachSchemaIsOneRecordWithItsFields() {
        Map<String, Set<Class<?>>> byName = new TreeMap<>();
        Set<Class<?>> seen = new HashSet<>();
        for (HandlerMethod m : mappings.getHandlerMethods().values()) {
            if (!m.getBeanType().getName().startsWith("dev.schedsim")) {
                continue;
            }
            walk(m.getMethod().getGenericReturnType(), byName, seen);
            Operation op = m.getMethodAnnotation(Operation.class);
            if (op != null) {
                for (io.swagger.v3.oas.annotations.media.Content c : op.requestBody().content()) {
                    walk(c.schema().implementation(), byName, seen);
                }
                for (io.swagger.v3.oas.annotations.responses.ApiResponse r : op.responses()) {
                    for (io.swagger.v3.oas.annotations.media.Content c : r.content()) {
                        walk(c.schema().implementation(), byName, seen);
                    }
                }
            }
        }
        assertThat(byName).containsKeys("SimulationView", "ResultDocument", "ProblemDetail", "SweepRange",
                "QuotaRange", "AcceptedAdvice", "ChromeTrace");
        byName.forEach((name, classes) -> {
            assertThat(classes).as("records named " + name).hasSize(1);
            Class<?> c = classes.iterator().next();
            Set<String> fields = new TreeSet<>();
            for (RecordComponent rc : c.getRecordComponents()) {
                com.fasterxml.jackson.annotation.JsonProperty jp = field(c, rc.getName())
                        .getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
                fields.add(jp != null ? jp.value() : rc.getName());
            }
            assertThat(api.schemas().path(name).path("properties").propertyNames()).as("schema " + name)
                    .containsExactlyInAnyOrderElementsOf(fields);
        });
    }

    private static void walk(Type t, Map<String, Set<Class<?>>> byName, Set<Class<?>> seen) {
        if (t instanceof ParameterizedType p) {
            walk(p.getRawType(), byName, seen);
            for (Type a : p.getActualTypeArguments()) {
                walk(a, byName, seen);
            }
            return;
        }
        if (!(t instanceof Class<?> c) || !c.getName().startsWith("dev.schedsim") || !c.isRecord()
                || !seen.add(c)) {
            return;
        }
        if (c.getTypeParameters().length == 0) { // (a generic record's schema is named by its arguments)
            byName.computeIfAbsent(ApiContract.schemaName(c), k -> new HashSet<>()).add(c);
        }
        for (RecordComponent rc : c.getRecordComponents()) {
            io.swagger.v3.oas.annotations.media.Schema s = field(c, rc.getName())
                    .getAnnotation(io.swagger.v3.oas.annotations.media.Schema.class);
            walk(s != null && s.implementation() != Void.class ? s.implementation() : rc.getGenericType(), byName,
                    seen);
        }
    }

    private static java.lang.reflect.Field field(Class<?> c, String name) {
        try {
            return c.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }
}
