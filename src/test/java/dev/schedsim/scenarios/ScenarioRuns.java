package dev.schedsim.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Runs scenarios through the real service (HTTP, queue, workers, engine) and reads their results. */
final class ScenarioRuns implements AutoCloseable {
    final ConfigurableApplicationContext context;
    final Http http;

    ScenarioRuns(Path dir) {
        context = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:file:" + dir.resolve("schedsim").toAbsolutePath() + ";AUTO_SERVER=FALSE",
                "spring.datasource.username=sa", "spring.datasource.password=", "schedsim.poll-interval=20ms"));
        http = EndToEnd.http(context);
    }

    /** The shipped request of a scenario. */
    static ObjectNode request(String name) {
        try (InputStream in = new ClassPathResource(ScenarioLibrary.DIR + name + ".json").getInputStream()) {
            return (ObjectNode) Http.JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Submits the scenario by name (POST /api/v1/scenarios/{name}/run with {@code overrides}); returns the id. */
    String runByName(String name, String overrides) {
        HttpResponse<String> r = http.post("/api/v1/scenarios/" + name + "/run", overrides);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        assertThat(r.headers().firstValue("Location")).isPresent();
        return Http.json(r).path("id").asString();
    }

    /** Submits the scenario's request changed by {@code shrink} to POST /api/v1/simulations; returns the id. */
    String runShrunk(String name, Consumer<ObjectNode> shrink) {
        ObjectNode req = request(name);
        shrink.accept(req);
        return EndToEnd.submit(http, Http.JSON.writeValueAsString(req));
    }

    /** Waits for a SUCCEEDED simulation and returns its result. */
    JsonNode result(String id) {
        for (int i = 0; i < 60_000; i++) {
            JsonNode n = Http.json(http.get("/api/v1/simulations/" + id));
            String s = n.path("status").asString();
            if (!s.equals("QUEUED") && !s.equals("RUNNING")) {
                assertThat(s).as(n.toString()).isEqualTo("SUCCEEDED");
                return n.path("result");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("simulation " + id + " did not finish");
    }

    /** The comparison row of {@code metric} (first patched variant against the baseline). */
    static JsonNode row(JsonNode result, String metric) {
        for (JsonNode r : result.path("comparison")) {
            if (r.path("metric").asString().equals(metric)) {
                return r;
            }
        }
        throw new AssertionError("no comparison row " + metric + " in " + result.path("comparison"));
    }

    /** The value at {@code pointer} (JSON pointer below the variant) of variant {@code v}. */
    static double at(JsonNode result, int v, String pointer) {
        JsonNode n = result.path("variants").get(v).at(pointer);
        assertThat(n.isNumber()).as(pointer + " in variant " + v).isTrue();
        return n.asDouble();
    }

    static JsonNode named(JsonNode array, String key, String value) {
        for (JsonNode n : array) {
            if (n.path(key).asString().equals(value)) {
                return n;
            }
        }
        throw new AssertionError("no " + key + "=" + value + " in " + array);
    }

    static double workload(JsonNode result, int v, String name, String pointer) {
        return named(result.path("variants").get(v).path("workloads"), "name", name).at(pointer).asDouble();
    }

    static double cgroup(JsonNode result, int v, String path, String field) {
        return named(result.path("variants").get(v).path("cgroups"), "path", path).path("cpuStat").path(field)
                .asDouble();
    }

    static double pct(double base, double variant) {
        return (variant - base) / base * 100;
    }

    @Override
    public void close() {
        context.close();
    }
}
