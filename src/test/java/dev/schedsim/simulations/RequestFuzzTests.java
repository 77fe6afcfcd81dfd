package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.schedsim.advice.AdviceExamples;
import dev.schedsim.topologies.TopologyExamples;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Property-based fuzzing of the request path: 12 000 requests, random and mutated from valid examples (values
 * replaced by other types, huge and negative numbers, unicode, deleted, duplicated and unknown keys, extra
 * nesting, deep nesting, truncation, byte flips), posted to the simulation, advice and topology endpoints. Among
 * the seeds and values are the shapes a hostile client sent (issue 36): sweeps and pods (whose cgroups lose their
 * paths, whose requests.cpu grow beyond a long), hundreds of deep cgroup paths, 16 variants x 20 repetitions of
 * microsecond cycles, route names as topology names. Property: never a 5xx other than the queue-full 503, and
 * every 4xx is {@code application/problem+json} naming no Java class, package, exception or getter. Seeded
 * ({@link SplittableRandom}), so a failure names the iteration and replays. The workers never poll (accepted
 * simulations are not run), the queue is large enough that the validator sees every request.
 */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:fuzz;DB_CLOSE_DELAY=-1",
        "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.max-body-size=64KB",
        "schedsim.workers=1", "schedsim.poll-interval=1h", "schedsim.max-queued=100000",
        "schedsim.advice.poll-interval=1h", "logging.level.dev.schedsim=ERROR",
        "logging.level.org.springframework.web=ERROR"})
@AutoConfigureMockMvc
class RequestFuzzTests {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final long SEED = 0x5ced5eedL;
    private static final int REQUESTS = 12_000;
    private static final java.util.regex.Pattern JAVA_NAME = java.util.regex.Pattern.compile(
            "\\b(?:java|javax|jakarta|dev\\.schedsim|tools\\.jackson|org\\.(?:spring|hibernate|h2|apache))\\.[a-z]"
                    + "|[A-Za-z]+(?:Exception|Error)\\b|\\$[A-Z][A-Za-z]+Request|\\b(?:get|is)[A-Z][A-Za-z]*\\(\\)"
                    + "|[A-Z][a-z]+[A-Z][A-Za-z]*Constraints");

    private static final List<String> SIMULATIONS = List.of(SimulationExamples.SIMULATION, SimulationExamples.VARIANTS,
            SimulationExamples.RT_APP, SimulationExamples.FTRACE, """
            {"name":"all-types","topology":{"sockets":1,"numaNodesPerSocket":1,"llcsPerNumaNode":1,"coresPerLlc":2,
             "threadsPerCore":2},"kernel":{"profile":"6.1","hz":1000,"features":{"EEVDF":false},
             "bandwidthSliceUs":3000},
             "cgroups":[{"path":"/a","cpuMax":"max 100000"},{"path":"/a/b","cpuMax":"20000 50000","cpuMaxBurst":1000,
              "cpuWeight":50}],
             "workloads":[{"name":"p","cgroup":"/a/b","type":"periodic","threads":2,"runUs":500,"sleepUs":1500,
               "jitterPct":10,"nice":-5,"cpus":"0-1"},
              {"name":"rr","type":"request-response","pairs":2,"serviceUs":50,"thinkUs":20},
              {"name":"hb","type":"hackbench","groups":1,"fdsPerGroup":2,"loops":5,"messageUs":5},
              {"name":"sb","type":"schbench","messageThreads":1,"workersPerMessageThread":2,"requestUs":100},
              {"name":"tr","type":"trace","threads":1,"segments":[{"runUs":100},{"sleepUs":200}]}],
             "durationMs":50,"seed":3,"repetitions":2}""", SimulationExamples.KUBERNETES, """
            {"topology":{"preset":"validation-2c"},"cgroups":[{"path":"/a","cpuMax":"50000"},{"path":"/a/b/c/d"}],
             "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound"}],"durationMs":100,
             "sweep":{"cgroup":"/a","quotaUs":{"from":10000,"to":50000,"step":20000}}}""", """
            {"topology":{"preset":"desktop-8c-smt2"},"durationMs":600000,"repetitions":20,
             "workloads":[{"name":"w","type":"periodic","threads":8,"runUs":1,"sleepUs":1}],
             "variants":[{"label":"a","kernel":{"hz":250}},{"label":"b"},{"label":"c"},{"label":"d"},{"label":"e"},
              {"label":"f"},{"label":"g"},{"label":"h"},{"label":"i"},{"label":"j"},{"label":"k"},{"label":"l"},
              {"label":"m"},{"label":"n"},{"label":"o"},{"label":"p","kernel":{"hz":1000}}]}""", deepCgroups());
    /** The advice seeds; the observed one last. */
    private static final List<String> ADVICES = List.of(AdviceExamples.ADVICE, AdviceExamples.ADVICE_BURSTABLE_POD,
            AdviceExamples.ADVICE_OBSERVED);

    /** Strings the fields take, and those of issue 36 (quantities beyond a long, route names, deep paths). */
    private static final List<String> STRINGS = List.of("", " ", "max", "max 100000", "1000 1000", "0-3,8", "/",
            "/a", "validation-2c", "6.18", "cpu-bound", "periodic", "-1", "NaN", "1e999", "\u0000",
            "9999999999999999", "2e16", "9223372036854775807m", "1e400", "presets", "..", ".", "/a/b/c/d",
            "/".concat("x".repeat(200)).repeat(32));

    @Autowired
    MockMvc mvc;

    @Test
    void noRequestEverGetsA500AndEvery4xxIsAProblem() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED);
        List<JsonNode> simulations = new ArrayList<>();
        for (String s : SIMULATIONS) {
            simulations.add(JSON.readTree(s));
        }
        List<JsonNode> advices = new ArrayList<>();
        for (String s : ADVICES) {
            advices.add(JSON.readTree(s));
        }
        JsonNode topology = JSON.readTree(TopologyExamples.TOPOLOGY);
        int[] byClass = new int[6];
        for (int i = 0; i < requests(); i++) {
            int endpoint = random.nextInt(8);
            // (an observed advice runs its fit while it is accepted, 0.2-2 s: one advice in six is one)
            JsonNode seed = endpoint == 0 ? topology : endpoint == 1 ? advices.get(random.nextInt(6) == 0 ? 2
                    : random.nextInt(2)) : simulations.get(random.nextInt(simulations.size()));
            String body = body(random, seed);
            String path = endpoint == 0 ? "/api/v1/topologies" : endpoint == 1 ? "/api/v1/advice"
                    : "/api/v1/simulations";
            MockHttpServletResponse r = mvc.perform(authorized(post(path)).contentType(MediaType.APPLICATION_JSON)
                    .content(body)).andReturn().getResponse();
            int status = r.getStatus();
            byClass[status / 100]++;
            String what = "request " + i + " (seed " + SEED + ") to " + path + ": " + abbreviate(body) + " -> "
                    + status + " " + abbreviate(r.getContentAsString());
            assertThat(status >= 500 && status != 503).as(what).isFalse();
            // The key of the secured variant is good for every request: no 401 or 403 whatever the body.
            assertThat(status == 401 || status == 403).as(what).isFalse();
            if (status >= 400) {
                assertThat(r.getContentType()).as(what).startsWith("application/problem+json");
                JsonNode problem = JSON.readTree(r.getContentAsString());
                assertThat(problem.path("status").asInt()).as(what).isEqualTo(status);
                assertThat(problem.path("title").isString()).as(what).isTrue();
                // No internals: no Java class, package or exception name in what a client reads.
                assertThat(JAVA_NAME.matcher(r.getContentAsString()).find()).as(what).isFalse();
            }
        }
        // The generator reaches both sides of the validator.
        assertThat(byClass[2]).as("accepted").isPositive();
        assertThat(byClass[4]).as("rejected").isGreaterThan(requests() / 4);
    }

    /** 300 paths of 4 levels (1 200 groups) and 20 of 16 levels of 40-character names: the size of item 3. */
    private static String deepCgroups() {
        StringBuilder paths = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            paths.append("{\"path\":\"/p").append(i).append("/a/b/c\"},");
        }
        String segments = "/".concat("n".repeat(40)).repeat(15);
        for (int i = 0; i < 20; i++) {
            paths.append("{\"path\":\"/q").append(i).append(segments).append("\"},");
        }
        return "{\"topology\":{\"preset\":\"validation-2c\"},\"cgroups\":[" + paths + "{\"path\":\"/a\"}],"
                + "\"workloads\":[{\"name\":\"w\",\"cgroup\":\"/a\",\"type\":\"cpu-bound\"}],\"durationMs\":100}";
    }

    /** How many requests: the first of the same seeded sequence in every variant. */
    int requests() {
        return REQUESTS;
    }

    /** The request as sent: as it is here, with an API key in {@link SecuredRequestFuzzTests}. */
    MockHttpServletRequestBuilder authorized(MockHttpServletRequestBuilder request) {
        return request;
    }

    /** A request body: a few mutations of the seed tree, sometimes then mangled as text. */
    private static String body(SplittableRandom random, JsonNode seed) {
        JsonNode tree = seed.deepCopy();
        int mutations = random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            tree = mutate(random, tree);
        }
        String text = JSON.writeValueAsString(tree);
        switch (random.nextInt(12)) {
            case 0 -> text = text.substring(0, random.nextInt(text.length() + 1));
            case 1 -> {
                if (text.isEmpty()) {
                    break;
                }
                char[] c = text.toCharArray();
                c[random.nextInt(c.length)] = (char) random.nextInt(0x20, 0x7f);
                text = new String(c);
            }
            case 2 -> text = duplicateKey(random, text);
            case 3 -> text = "[".repeat(random.nextInt(1, 3000)) + text;
            case 4 -> text = random.nextBoolean() ? "" : random.nextBoolean() ? "null" : "\"" + text + "\"";
            default -> {
            }
        }
        return text;
    }

    /** A random node of the tree replaced, removed, wrapped or given a sibling. */
    private static JsonNode mutate(SplittableRandom random, JsonNode root) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        if (containers.isEmpty()) {
            return randomValue(random, 3);
        }
        JsonNode target = containers.get(random.nextInt(containers.size()));
        if (target instanceof ObjectNode o) {
            List<String> names = new ArrayList<>(o.propertyNames());
            int op = random.nextInt(5);
            if (names.isEmpty() || op == 0) {
                o.set(random.nextBoolean() ? "unknownField" : randomString(random), randomValue(random, 2));
            } else {
                String name = names.get(random.nextInt(names.size()));
                switch (op) {
                    case 1 -> o.remove(name);
                    case 2 -> o.set(name, wrap(random, o.get(name)));
                    default -> o.set(name, randomValue(random, 2));
                }
            }
        } else if (target instanceof ArrayNode a) {
            int op = random.nextInt(5);
            if (a.isEmpty() || op == 0) {
                a.add(random.nextBoolean() && !a.isEmpty() ? a.get(0).deepCopy() : randomValue(random, 2));
            } else if (op == 4) {
                // many of one element (cgroups, workloads, variants, containers): the limits on counts
                JsonNode first = a.get(0);
                for (int k = random.nextInt(2, 400); k > 0; k--) {
                    a.add(first.deepCopy());
                }
            } else {
                int i = random.nextInt(a.size());
                switch (op) {
                    case 1 -> a.remove(i);
                    case 2 -> a.set(i, wrap(random, a.get(i)));
                    default -> a.set(i, randomValue(random, 2));
                }
            }
        }
        return random.nextInt(50) == 0 ? randomValue(random, 3) : root;
    }

    private static void collect(JsonNode n, List<JsonNode> out) {
        if (n.isContainer()) {
            out.add(n);
            n.forEach(c -> collect(c, out));
        }
    }

    private static JsonNode wrap(SplittableRandom random, JsonNode n) {
        if (random.nextBoolean()) {
            ArrayNode a = NODES.arrayNode();
            a.add(n.deepCopy());
            return a;
        }
        ObjectNode o = NODES.objectNode();
        o.set("value", n.deepCopy());
        return o;
    }

    private static JsonNode randomValue(SplittableRandom random, int depth) {
        return switch (random.nextInt(depth > 0 ? 14 : 11)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextInt(-10, 10));
            case 3 -> NODES.numberNode(random.nextLong());
            case 4 -> NODES.numberNode(new java.math.BigInteger(200, new java.util.Random(random.nextLong())));
            case 5 -> NODES.numberNode(new java.math.BigDecimal("1e" + random.nextInt(-400, 400)));
            case 6 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(-5, 20)));
            case 7 -> NODES.numberNode(List.of(Integer.MAX_VALUE, Integer.MIN_VALUE, 0, -1, 1, 1 << 20)
                    .get(random.nextInt(6)));
            case 8 -> NODES.stringNode(randomString(random));
            case 9 -> NODES.stringNode(STRINGS.get(random.nextInt(STRINGS.size())));
            case 10 -> NODES.stringNode("x".repeat(random.nextInt(1, 5000)));
            case 11, 12 -> {
                ArrayNode a = NODES.arrayNode();
                for (int k = random.nextInt(4); k > 0; k--) {
                    a.add(randomValue(random, depth - 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = NODES.objectNode();
                for (int k = random.nextInt(4); k > 0; k--) {
                    o.set(randomString(random), randomValue(random, depth - 1));
                }
                yield o;
            }
        };
    }

    private static String randomString(SplittableRandom random) {
        StringBuilder b = new StringBuilder();
        for (int k = random.nextInt(0, 12); k > 0; k--) {
            int cp = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(0x20, 0x7f);
                case 1 -> random.nextInt(0x80, 0x800);
                case 2 -> random.nextInt(0x1F300, 0x1F64F);
                default -> random.nextInt(0, 0x20);
            };
            b.appendCodePoint(cp);
        }
        return b.toString();
    }

    private static String duplicateKey(SplittableRandom random, String text) {
        int i = text.indexOf("\":", random.nextInt(Math.max(1, text.length())));
        if (i < 0) {
            return text;
        }
        int start = text.lastIndexOf('"', i - 1);
        if (start < 0) {
            return text;
        }
        String key = text.substring(start, i + 2);
        return text.substring(0, start) + key + "1," + text.substring(start);
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "…(" + s.length() + " chars)";
    }
}
