package dev.schedsim.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * Every endpoint x every kind of caller, against the running service with security on: no key, a wrong key, a
 * read key of the owner, the owner's submit key, another client's submit key, an admin key -> the status each
 * gets. The endpoints are the service's own handler mappings: one added without a row here fails
 * {@link #everyEndpointHasARow()}. Then what the table cannot show: lists filtered by owner, rows without an
 * owner admin-only, idempotency keys and saved-topology names across clients, the other ways to send a key.
 */
class EndpointSecurityTests {
    static final String ALICE = "alice-submit-secret-0001";
    static final String ALICE_READ = "alice-read-secret-000001";
    static final String BOB = "bob-submit-secret-000001";
    static final String ROOT = "root-admin-secret-000001";
    static final String WRONG = "not-a-configured-key-0001";

    /** Who calls. */
    enum Caller { NONE, BAD, READ, OWN, OTHER, ADMIN }

    static final String SMALL = """
            {"name":"%s","topology":{"preset":"validation-2c"},"cgroups":[{"path":"/a","cpuMax":"50000 100000"}],
             "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound","threads":2}],"durationMs":100,"seed":1,
             "trace":true}""";
    /** A small advice: three steps of a short simulation. */
    static final String ADVICE = """
            {"request":{"topology":{"preset":"validation-2c"},"cgroups":[{"path":"/a","cpuMax":"50000 100000"}],
             "workloads":[{"name":"w","cgroup":"/a","type":"periodic","threads":2,"runUs":2000,"sleepUs":8000}],
             "durationMs":200},"cgroup":"/a","objective":{"maxThrottledPeriodsPct":5},
             "search":{"quotaUs":{"min":20000,"max":60000},"resolutionUs":10000},"repetitions":1}""";
    static final String TOPOLOGY = """
            {"name":"%s","topology":{"sockets":1,"numaNodesPerSocket":1,"llcsPerNumaNode":1,"coresPerLlc":2,
             "threadsPerCore":2}}""";

    static ConfigurableApplicationContext ctx;
    static Http http;
    static final Map<Caller, Http> as = new LinkedHashMap<>();
    /** alice's SUCCEEDED simulation (with a trace) and saved topology. */
    static String done;
    /** alice's SUCCEEDED advice. */
    static String advice;
    static final AtomicInteger names = new AtomicInteger();

    @BeforeAll
    static void start() {
        String bobHash = HexFormat.of().formatHex(ApiKeys.sha256(BOB));
        ctx = EndToEnd.start(List.of("spring.datasource.url=jdbc:h2:mem:endpoint-security;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.workers=2",
                "schedsim.warmup=0s", "schedsim.poll-interval=20ms",
                "schedsim.security.api-keys=alice:" + ALICE + ":submit,alice:" + ALICE_READ + ":read,"
                        + "bob:{sha256}" + bobHash + ":submit,root:" + ROOT + ":admin"));
        http = EndToEnd.http(ctx);
        as.put(Caller.NONE, http);
        as.put(Caller.BAD, http.withKey(WRONG));
        as.put(Caller.READ, http.withKey(ALICE_READ));
        as.put(Caller.OWN, http.withKey(ALICE));
        as.put(Caller.OTHER, http.withKey(BOB));
        as.put(Caller.ADMIN, http.withKey(ROOT));
        done = finished(as.get(Caller.OWN));
        advice = finishedAdvice(as.get(Caller.OWN));
        HttpResponse<String> saved = as.get(Caller.OWN).post("/api/v1/topologies", TOPOLOGY.formatted("alice-box"));
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        if (ctx != null) {
            ctx.close();
        }
    }

    /** A simulation of the caller's, SUCCEEDED. */
    static String finished(Http who) {
        String id = EndToEnd.submit(who, SMALL.formatted("s" + names.incrementAndGet()));
        JsonNode n = who.awaitFinished(id);
        assertThat(n.path("status").asString()).as(n.toString()).isEqualTo("SUCCEEDED");
        return id;
    }

    /** An advice of the caller's, SUCCEEDED. */
    static String finishedAdvice(Http who) {
        HttpResponse<String> r = who.post("/api/v1/advice", ADVICE);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String id = Http.json(r).path("id").asString();
        JsonNode n = who.awaitAdvice(id);
        assertThat(n.path("status").asString()).as(n.toString()).isEqualTo("SUCCEEDED");
        return id;
    }

    /** One endpoint: how to call it as each caller, and what each gets. */
    record Row(String method, Function<Caller, String> path, String body, Map<Caller, Integer> expected) {
    }

    static Map<Caller, Integer> statuses(int none, int bad, int read, int own, int other, int admin) {
        Map<Caller, Integer> m = new LinkedHashMap<>();
        m.put(Caller.NONE, none);
        m.put(Caller.BAD, bad);
        m.put(Caller.READ, read);
        m.put(Caller.OWN, own);
        m.put(Caller.OTHER, other);
        m.put(Caller.ADMIN, admin);
        return m;
    }

    /** A GET: any key; {@code other} is what another client gets (404 for the owner's rows). */
    static Map<Caller, Integer> reading(int ok, int other) {
        return statuses(401, 401, ok, ok, other, ok);
    }

    /** A change: submit or admin keys; read keys 403. */
    static Map<Caller, Integer> changing(int ok, int other) {
        return statuses(401, 401, 403, ok, other, ok);
    }

    static Map<Caller, Integer> open() {
        return statuses(200, 401, 200, 200, 200, 200);
    }

    static Map<Caller, Integer> adminOnly() {
        return statuses(401, 401, 403, 403, 403, 200);
    }

    static Function<Caller, String> fixed(String path) {
        return c -> path;
    }

    /** Keyed by "METHOD pattern" as the handler mappings name them ("*" for every method). */
    static Map<String, Row> table() {
        Map<String, Row> t = new LinkedHashMap<>();
        String sim = "/api/v1/simulations/";
        add(t, "GET", "/api/v1/simulations", fixed("/api/v1/simulations"), null, reading(200, 200));
        add(t, "POST", "/api/v1/simulations", fixed("/api/v1/simulations"), SMALL.formatted("table"),
                changing(202, 202));
        add(t, "GET", "/api/v1/simulations/{id}", c -> sim + done, null, reading(200, 404));
        add(t, "GET", "/api/v1/simulations/{id}/result", c -> sim + done + "/result", null, reading(200, 404));
        add(t, "GET", "/api/v1/simulations/{id}/report", c -> sim + done + "/report", null, reading(200, 404));
        add(t, "GET", "/api/v1/simulations/{id}/trace", c -> sim + done + "/trace", null, reading(200, 404));
        add(t, "GET", "/api/v1/simulations/{id}/metrics", c -> sim + done + "/metrics", null, reading(200, 404));
        // alice's finished simulation: cancelling it is a conflict for those who may, unknown to bob.
        add(t, "POST", "/api/v1/simulations/{id}/cancel", c -> sim + done + "/cancel", "", changing(409, 404));
        // Those who may delete delete a finished simulation of alice's made for the call.
        add(t, "DELETE", "/api/v1/simulations/{id}", c -> sim + (c == Caller.OWN || c == Caller.ADMIN
                ? finished(as.get(Caller.OWN)) : done), null, changing(204, 404));
        add(t, "GET", "/api/v1/topologies/presets", fixed("/api/v1/topologies/presets"), null, reading(200, 200));
        add(t, "GET", "/api/v1/topologies/presets/{name}", fixed("/api/v1/topologies/presets/validation-2c"), null,
                reading(200, 200));
        add(t, "GET", "/api/v1/topologies", fixed("/api/v1/topologies"), null, reading(200, 200));
        add(t, "POST", "/api/v1/topologies", fixed("/api/v1/topologies"), null, changing(201, 201));
        add(t, "GET", "/api/v1/topologies/{name}", fixed("/api/v1/topologies/alice-box"), null, reading(200, 404));
        add(t, "GET", "/api/v1/kernel-profiles", fixed("/api/v1/kernel-profiles"), null, reading(200, 200));
        add(t, "GET", "/api/v1/scenarios", fixed("/api/v1/scenarios"), null, reading(200, 200));
        add(t, "GET", "/api/v1/scenarios/{name}", fixed("/api/v1/scenarios/seed-001-static-key"), null,
                reading(200, 200));
        add(t, "POST", "/api/v1/scenarios/{name}/run", fixed("/api/v1/scenarios/seed-001-static-key/run"),
                "{\"durationMs\": 50, \"repetitions\": 1}", changing(202, 202));
        String adv = "/api/v1/advice/";
        add(t, "POST", "/api/v1/advice", fixed("/api/v1/advice"), ADVICE, changing(202, 202));
        add(t, "GET", "/api/v1/advice/{id}", c -> adv + advice, null, reading(200, 404));
        add(t, "GET", "/api/v1/advice/{id}/report", c -> adv + advice + "/report", null, reading(200, 404));
        // alice's finished advice: cancelling it is a conflict for those who may, unknown to bob.
        add(t, "POST", "/api/v1/advice/{id}/cancel", c -> adv + advice + "/cancel", "", changing(409, 404));
        // The container's error page, called directly: it has no error to render (500, as without security).
        add(t, "*", "/error", fixed("/error"), null, statuses(401, 401, 500, 500, 500, 500));
        add(t, "GET", "/v3/api-docs", fixed("/v3/api-docs"), null, open());
        add(t, "GET", "/v3/api-docs.yaml", fixed("/v3/api-docs.yaml"), null, open());
        add(t, "GET", "/v3/api-docs/swagger-config", fixed("/v3/api-docs/swagger-config"), null, open());
        // the advisor's page: a form, no one's data; its script sends the key typed into it
        add(t, "GET", "/advisor", fixed("/advisor"), null, open());
        add(t, "GET", "/swagger-ui.html", fixed("/swagger-ui.html"), null,
                statuses(302, 401, 302, 302, 302, 302));
        return t;
    }

    /** The actuator's endpoints (their own handler mapping, not RequestMappingHandlerMapping). */
    static Map<String, Row> actuator() {
        Map<String, Row> t = new LinkedHashMap<>();
        add(t, "GET", "/actuator/health", fixed("/actuator/health"), null, open());
        add(t, "GET", "/actuator/health/liveness", fixed("/actuator/health/liveness"), null, open());
        add(t, "GET", "/actuator/health/readiness", fixed("/actuator/health/readiness"), null, open());
        add(t, "GET", "/actuator/info", fixed("/actuator/info"), null, adminOnly());
        add(t, "GET", "/actuator/prometheus", fixed("/actuator/prometheus"), null, adminOnly());
        add(t, "GET", "/actuator", fixed("/actuator"), null, adminOnly());
        return t;
    }

    static void add(Map<String, Row> t, String method, String pattern, Function<Caller, String> path, String body,
                    Map<Caller, Integer> expected) {
        t.put(method + " " + pattern, new Row(method, path, body, expected));
    }

    @Test
    void everyEndpointHasARow() {
        TreeSet<String> mapped = new TreeSet<>();
        for (RequestMappingHandlerMapping m : ctx.getBeansOfType(RequestMappingHandlerMapping.class).values()) {
            for (RequestMappingInfo info : m.getHandlerMethods().keySet()) {
                List<String> methods = info.getMethodsCondition().getMethods().stream().map(Enum::name).toList();
                for (String pattern : info.getPatternValues()) {
                    if (methods.isEmpty()) {
                        mapped.add("* " + pattern);
                    }
                    methods.forEach(x -> mapped.add(x + " " + pattern));
                }
            }
        }
        assertThat(mapped).as("endpoints of the service; each needs a row in table()")
                .containsExactlyInAnyOrderElementsOf(table().keySet());
    }

    @Test
    void everyEndpointAnswersEachCallerAsItsRoleAndOwnershipSay() {
        Map<String, Row> rows = new LinkedHashMap<>(table());
        rows.putAll(actuator());
        List<String> wrong = new ArrayList<>();
        int cells = 0;
        for (Map.Entry<String, Row> e : rows.entrySet()) {
            Row row = e.getValue();
            for (Map.Entry<Caller, Integer> x : row.expected().entrySet()) {
                Caller caller = x.getKey();
                String path = row.path().apply(caller);
                String body = row.body() != null ? row.body() : e.getKey().equals("POST /api/v1/topologies")
                        ? TOPOLOGY.formatted("box-" + names.incrementAndGet()) : null;
                HttpResponse<String> r = call(as.get(caller), row.method(), path, body);
                cells++;
                String what = e.getKey() + " as " + caller + " (" + path + "): " + r.statusCode() + " "
                        + abbreviate(r.body());
                if (r.statusCode() != x.getValue()) {
                    wrong.add(what + ", expected " + x.getValue());
                    continue;
                }
                if (r.statusCode() == 401 || r.statusCode() == 403 || r.statusCode() == 404) {
                    assertThat(r.headers().firstValue("Content-Type")).as(what)
                            .hasValueSatisfying(c -> assertThat(c).startsWith("application/problem+json"));
                    assertThat(Http.json(r).path("status").asInt()).as(what).isEqualTo(r.statusCode());
                    assertThat(r.headers().firstValue("Location")).as(what).isEmpty();
                }
                if (r.statusCode() == 401) {
                    // No browser password dialog: the challenge is Bearer, never Basic.
                    assertThat(r.headers().allValues("WWW-Authenticate")).as(what)
                            .allSatisfy(h -> assertThat(h).startsWith("Bearer"));
                    assertThat(Http.json(r).path("type").asString()).as(what)
                            .isEqualTo("https://schedsim.dev/problems/unauthorized");
                }
                if (r.statusCode() == 403) {
                    assertThat(Http.json(r).path("type").asString()).as(what)
                            .isEqualTo("https://schedsim.dev/problems/forbidden");
                }
            }
        }
        assertThat(wrong).as("cells answered otherwise than the table says").isEmpty();
        assertThat(cells).isEqualTo(rows.size() * Caller.values().length);
    }

    /** The service submits an advice's steps for the client that asked: they are that client's simulations. */
    @Test
    void anAdvicesStepsBelongToItsClient() {
        String step = Http.json(as.get(Caller.OWN).get("/api/v1/advice/" + advice)).path("simulation").asString();
        assertThat(step).isNotEmpty();
        assertThat(as.get(Caller.OWN).get("/api/v1/simulations/" + step).statusCode()).isEqualTo(200);
        assertThat(as.get(Caller.OTHER).get("/api/v1/simulations/" + step).statusCode()).isEqualTo(404);
        assertThat(ids(as.get(Caller.OWN), "/api/v1/simulations?size=100")).contains(step);
    }

    @Test
    void listsShowEachClientItsOwnAndAdminEveryones() {
        String bobs = finished(as.get(Caller.OTHER));
        // (the endpoint table's POST /api/v1/advice goes on submitting steps as alice's simulations meanwhile: read
        // alice's list with her read-only key between two equal reads with her own)
        List<String> alice;
        List<String> aliceRead;
        int tries = 0;
        do {
            alice = ids(as.get(Caller.OWN), "/api/v1/simulations?size=100");
            aliceRead = ids(as.get(Caller.READ), "/api/v1/simulations?size=100");
        } while (!alice.equals(ids(as.get(Caller.OWN), "/api/v1/simulations?size=100")) && ++tries < 50);
        List<String> bob = ids(as.get(Caller.OTHER), "/api/v1/simulations?size=100");
        List<String> admin = ids(as.get(Caller.ADMIN), "/api/v1/simulations?size=100");
        assertThat(alice).contains(done).doesNotContain(bobs);
        assertThat(aliceRead).containsExactlyElementsOf(alice);
        assertThat(bob).contains(bobs).doesNotContain(done);
        assertThat(admin).contains(done, bobs);
        assertThat(as.get(Caller.OTHER).get("/api/v1/simulations?name=s1").body()).contains("\"totalElements\":0");

        List<String> aliceTopologies = names(as.get(Caller.OWN));
        assertThat(aliceTopologies).contains("alice-box");
        assertThat(names(as.get(Caller.OTHER))).doesNotContain("alice-box");
        assertThat(names(as.get(Caller.ADMIN))).contains("alice-box");
    }

    @Test
    void aRowWithoutOwnerIsAdminOnly() {
        String id = finished(as.get(Caller.OWN));
        // As a row written while security was off (or before V5__owner.sql) reads.
        ctx.getBean(JdbcTemplate.class).update("update simulation set owner = null where id = ?", id);
        assertThat(as.get(Caller.OWN).get("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
        assertThat(as.get(Caller.OWN).delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(404);
        assertThat(ids(as.get(Caller.OWN), "/api/v1/simulations?size=100")).doesNotContain(id);
        assertThat(as.get(Caller.ADMIN).get("/api/v1/simulations/" + id).statusCode()).isEqualTo(200);
        assertThat(ids(as.get(Caller.ADMIN), "/api/v1/simulations?size=100")).contains(id);
    }

    @Test
    void anotherClientsIdempotencyKeyAndTopologyNameAreNotItsOwn() {
        String key = "idem-" + names.incrementAndGet();
        String body = SMALL.formatted("idem");
        HttpResponse<String> first = as.get(Caller.OWN).send(post("/api/v1/simulations", body).header(
                "Idempotency-Key", key));
        assertThat(first.statusCode()).as(first.body()).isEqualTo(202);
        HttpResponse<String> replay = as.get(Caller.OWN).send(post("/api/v1/simulations", body).header(
                "Idempotency-Key", key));
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
        HttpResponse<String> bob = as.get(Caller.OTHER).send(post("/api/v1/simulations", body).header(
                "Idempotency-Key", key));
        assertThat(bob.statusCode()).as(bob.body()).isEqualTo(409);
        assertThat(bob.body()).doesNotContain(Http.json(first).path("id").asString());

        // Names are one namespace: alice's is taken for bob, and he can neither read nor use her topology.
        HttpResponse<String> taken = as.get(Caller.OTHER).post("/api/v1/topologies", TOPOLOGY.formatted("alice-box"));
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(409);
        assertThat(Http.json(taken).path("detail").asString()).contains("another client");
        HttpResponse<String> use = as.get(Caller.OTHER).post("/api/v1/simulations",
                SMALL.formatted("on-alice-box").replace("\"validation-2c\"", "\"alice-box\""));
        assertThat(use.statusCode()).as(use.body()).isEqualTo(400);
        HttpResponse<String> own = as.get(Caller.OWN).post("/api/v1/simulations",
                SMALL.formatted("on-alice-box").replace("\"validation-2c\"", "\"alice-box\""));
        assertThat(own.statusCode()).as(own.body()).isEqualTo(202);
    }

    @Test
    void theApiDocumentSaysHowToSendAKey() {
        JsonNode doc = Http.json(http.get("/v3/api-docs"));
        assertThat(doc.path("components").path("securitySchemes").path("bearer").path("scheme").asString())
                .isEqualTo("bearer");
        assertThat(doc.path("components").path("securitySchemes").path("apiKey").path("name").asString())
                .isEqualTo("X-API-Key");
        assertThat(doc.path("security").size()).isEqualTo(2);
        doc.path("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            for (String status : new String[] {"401", "403"}) {
                assertThat(op.getValue().path("responses").path(status).path("content")
                        .path("application/problem+json").path("schema").path("$ref").asString())
                        .as(op.getKey() + " " + path.getKey() + " " + status)
                        .isEqualTo("#/components/schemas/ProblemDetail");
            }
        }));
    }

    @Test
    void aKeyMayComeAsXApiKeyButNotAsBasicAuth() {
        HttpResponse<String> header = http.send(HttpRequest.newBuilder(uri("/api/v1/simulations/" + done))
                .header("X-API-Key", ALICE).GET());
        assertThat(header.statusCode()).as(header.body()).isEqualTo(200);
        HttpResponse<String> wrongHeader = http.send(HttpRequest.newBuilder(uri("/api/v1/simulations/" + done))
                .header("X-API-Key", WRONG).GET());
        assertThat(wrongHeader.statusCode()).isEqualTo(401);
        assertThat(Http.json(wrongHeader).path("detail").asString()).contains("not valid");
        HttpResponse<String> basic = http.send(HttpRequest.newBuilder(uri("/api/v1/simulations/" + done))
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                        ("alice:" + ALICE).getBytes())).GET());
        assertThat(basic.statusCode()).isEqualTo(401);
        assertThat(basic.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                h -> assertThat(h).startsWith("Bearer"));
    }

    private static List<String> ids(Http who, String path) {
        List<String> ids = new ArrayList<>();
        Http.json(who.get(path)).path("content").forEach(n -> ids.add(n.path("id").asString()));
        return ids;
    }

    private static List<String> names(Http who) {
        List<String> names = new ArrayList<>();
        Http.json(who.get("/api/v1/topologies")).forEach(n -> names.add(n.path("name").asString()));
        return names;
    }

    private static URI uri(String path) {
        return URI.create("http://localhost:" + port() + path);
    }

    private static int port() {
        return ((org.springframework.boot.web.server.context.WebServerApplicationContext) ctx).getWebServer()
                .getPort();
    }

    private static HttpRequest.Builder post(String path, String body) {
        return HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpResponse<String> call(Http who, String method, String path, String body) {
        return switch (method) {
            case "GET", "*" -> who.get(path);
            case "POST" -> who.post(path, body == null ? "" : body);
            case "DELETE" -> who.delete(path);
            default -> throw new AssertionError("no way to send " + method);
        };
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }
}
