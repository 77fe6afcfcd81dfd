package dev.schedsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The end-to-end scenario shared by the H2 and PostgreSQL tests: real HTTP, the real engine, a restart on the
 * same database.
 */
public final class EndToEnd {
    /** Two weighted groups on the 2-CPU validation machine: /a should get 2/3 of the CPU time. */
    public static final String FAIR_SHARE = """
            { "name": "weights-2-1", "topology": { "preset": "validation-2c" },
              "cgroups": [ { "path": "/a", "cpuWeight": 200 }, { "path": "/b", "cpuWeight": 100 } ],
              "workloads": [
                { "name": "a", "cgroup": "/a", "type": "cpu-bound", "threads": 2 },
                { "name": "b", "cgroup": "/b", "type": "cpu-bound", "threads": 2 } ],
              "durationMs": 2000, "seed": 7 }""";

    private EndToEnd() {
    }

    /**
     * A real simulation that stays RUNNING for many minutes and reports progress all along: 480 CPUs, 2000
     * periodic threads and 500 request-response pairs for 10 simulated minutes. Tests that start one cancel it.
     */
    public static String longRun(String name) {
        return """
                { "name": "%s", "topology": { "preset": "gnr-2s-snc3-smt2" },
                  "cgroups": [ { "path": "/web", "cpuWeight": 200 }, { "path": "/svc" } ],
                  "workloads": [
                    { "name": "web", "cgroup": "/web", "type": "periodic", "threads": 2000, "runUs": 2000,
                      "sleepUs": 8000 },
                    { "name": "svc", "cgroup": "/svc", "type": "request-response", "pairs": 500, "serviceUs": 50,
                      "thinkUs": 20 } ],
                  "durationMs": 600000 }""".formatted(name);
    }

    /** Starts the application on a random port with {@code properties}. */
    public static ConfigurableApplicationContext start(List<String> properties) {
        // Command-line arguments: they outrank application.properties and the environment (builder
        // "properties" are only defaults).
        List<String> args = new ArrayList<>();
        for (String p : properties) {
            args.add("--" + p);
        }
        args.add("--server.port=0");
        return new SpringApplicationBuilder(SchedSimApplication.class).run(args.toArray(String[]::new));
    }

    public static Http http(ConfigurableApplicationContext context) {
        return new Http(((WebServerApplicationContext) context).getWebServer().getPort());
    }

    public static String submit(Http http, String body) {
        HttpResponse<String> r = http.post("/api/v1/simulations", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return Http.json(r).path("id").asString();
    }

    /**
     * Runs the fair-share simulation twice (same request and seed), checks the 2:1 weight split and that both
     * results are byte-identical; returns the first simulation's id and its result bytes.
     */
    public static String[] fairShareTwice(Http http) {
        String first = submit(http, FAIR_SHARE);
        String second = submit(http, FAIR_SHARE);
        JsonNode done = http.awaitFinished(first);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(http.awaitFinished(second).path("status").asString()).isEqualTo("SUCCEEDED");

        JsonNode variant = done.path("result").path("variants").get(0);
        assertThat(variant.path("seeds").get(0).asLong()).isEqualTo(7);
        double a = usage(variant, "/a");
        double b = usage(variant, "/b");
        assertThat(a + b).isPositive();
        assertThat(a / (a + b)).isCloseTo(2.0 / 3.0, within(2.0 / 3.0 * 0.02));

        String resultA = http.get("/api/v1/simulations/" + first + "/result").body();
        String resultB = http.get("/api/v1/simulations/" + second + "/result").body();
        assertThat(resultB).isEqualTo(resultA);
        assertThat(Http.json(http.get("/api/v1/simulations/" + first)).path("result"))
                .isEqualTo(Http.json(http.get("/api/v1/simulations/" + second)).path("result"));
        return new String[] {first, resultA};
    }

    private static double usage(JsonNode variant, String path) {
        for (JsonNode c : variant.path("cgroups")) {
            if (c.path("path").asString().equals(path)) {
                return c.path("cpuStat").path("usageUsec").asDouble();
            }
        }
        throw new AssertionError("no cgroup " + path + " in " + variant);
    }

    /** After a restart the simulation and its result are still there, byte for byte. */
    public static void stillThere(Http http, String id, String result) {
        JsonNode job = Http.json(http.get("/api/v1/simulations/" + id));
        assertThat(job.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(http.get("/api/v1/simulations/" + id + "/result").body()).isEqualTo(result);
    }
}
