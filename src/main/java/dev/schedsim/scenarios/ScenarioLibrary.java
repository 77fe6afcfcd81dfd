package dev.schedsim.scenarios;

import dev.schedsim.advice.AdviceRequest;
import dev.schedsim.json.Json;
import dev.schedsim.request.SimulationRequest;
import io.swagger.v3.oas.annotations.media.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The scenarios, in catalog order. Each is {@code scenarios/NAME.json}, a request in the format of
 * {@code POST /api/v1/simulations} with its variants (baseline first), or for an advisor scenario
 * ({@code "kind": "advice"} in the catalog) one of {@code POST /api/v1/advice}; plus its entry in
 * {@code scenarios/catalog.json}: title, description, machine, the published figures and their source, and
 * what to expect.
 */
@Component
public class ScenarioLibrary {
    static final String DIR = "scenarios/";
    /** A scenario run as a simulation (its request goes to POST /api/v1/simulations). */
    public static final String SIMULATION = "simulation";
    /** A scenario run as an advice (its request goes to POST /api/v1/advice). */
    public static final String ADVICE = "advice";

    /** One scenario: its catalog entry and its ready request. */
    public record Scenario(String name,
                           @Schema(description = "simulation: the request is one of POST /api/v1/simulations and a "
                                   + "run is a simulation; advice: one of POST /api/v1/advice and a run an advice",
                                   allowableValues = {SIMULATION, ADVICE}) String kind,
                           String title, String description, String machine, Published published,
                           String expect,
                           @Schema(description = "the ready request: a simulation's to post to /api/v1/simulations "
                                   + "as is, an advice's to /api/v1/advice",
                                   implementation = Map.class, anyOf = {SimulationRequest.class, AdviceRequest.class})
                           JsonNode request) {
        public boolean advice() {
            return ADVICE.equals(kind);
        }
    }

    /** The original authors' figures and where they were published. */
    public record Published(String figures, String source) {
    }

    private final Map<String, Scenario> scenarios;

    public ScenarioLibrary() {
        Map<String, Scenario> m = new LinkedHashMap<>();
        for (JsonNode e : read(DIR + "catalog.json")) {
            String name = e.path("name").asString();
            String kind = e.path("kind").asString(SIMULATION);
            JsonNode request = read(DIR + name + ".json");
            if (!name.equals(request.path("name").asString())) {
                throw new IllegalStateException("scenario " + name + ": the request must carry its name");
            }
            if (kind.equals(SIMULATION) && !request.path("variants").isArray()) {
                throw new IllegalStateException("scenario " + name + ": a simulation scenario has its variants");
            }
            if (kind.equals(ADVICE) && !(request.has("objective") && request.has("search"))) {
                throw new IllegalStateException("scenario " + name + ": an advice scenario has its objective and "
                        + "search");
            }
            if (!kind.equals(SIMULATION) && !kind.equals(ADVICE)) {
                throw new IllegalStateException("scenario " + name + ": kind " + kind);
            }
            m.put(name, new Scenario(name, kind, e.path("title").asString(), e.path("description").asString(),
                    e.path("machine").asString(), new Published(e.path("published").path("figures").asString(),
                    e.path("published").path("source").asString()), e.path("expect").asString(), request));
        }
        this.scenarios = Collections.unmodifiableMap(m);
    }

    public List<Scenario> all() {
        return new ArrayList<>(scenarios.values());
    }

    public Optional<Scenario> find(String name) {
        return Optional.ofNullable(scenarios.get(name));
    }

    /**
     * The scenario's request with the overrides applied ({@code null} keeps the scenario's value), as JSON text
     * ready for the submission path. An advice's repetitions are its own; its seed and simulated time are those of
     * the request it sizes, or its own beside a pod ({@code kubernetes}).
     */
    public String request(Scenario s, Long seed, Integer repetitions, Long durationMs) {
        ObjectNode r = (ObjectNode) s.request().deepCopy();
        ObjectNode runs = s.advice() && r.path("request").isObject() ? (ObjectNode) r.path("request") : r;
        if (seed != null) {
            runs.put("seed", seed);
        }
        if (repetitions != null) {
            r.put("repetitions", repetitions);
        }
        if (durationMs != null) {
            runs.put("durationMs", durationMs);
        }
        return Json.REQUEST.writeValueAsString(r);
    }

    private static JsonNode read(String path) {
        try (InputStream in = new ClassPathResource(path).getInputStream()) {
            return Json.REQUEST.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
