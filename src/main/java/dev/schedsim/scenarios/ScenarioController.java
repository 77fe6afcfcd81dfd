package dev.schedsim.scenarios;

import dev.schedsim.advice.AdviceSubmissions;
import dev.schedsim.advice.AdviceView;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.NotFoundException;
import dev.schedsim.simulations.SimulationView;
import dev.schedsim.simulations.Submissions;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The built-in scenario library (docs/api.md, "Endpoints"; the figures each one publishes are in scenarios/catalog.json). */
@RestController
@RequestMapping("/api/v1/scenarios")
@Tag(name = "scenarios", description = "The seeds' experiments and real-world cases, ready to run")
class ScenarioController {
    static final String OVERRIDES = """
            { "seed": 7, "repetitions": 1, "durationMs": 1000 }""";

    private final ScenarioLibrary library;
    private final Submissions submissions;
    private final AdviceSubmissions advice;

    ScenarioController(ScenarioLibrary library, Submissions submissions, AdviceSubmissions advice) {
        this.library = library;
        this.submissions = submissions;
        this.advice = advice;
    }

    /** Optional overrides of a scenario run; absent fields keep the scenario's values. */
    record Overrides(Long seed, Integer repetitions, Long durationMs) {
    }

    @GetMapping
    @Operation(operationId = "listScenarios", summary = "List the scenarios",
            description = "Each with its kind, description, machine, the published figures and their source, what "
                    + "to expect, and the ready request (post it as is to /api/v1/simulations, or for kind advice "
                    + "to /api/v1/advice; or run it by name).")
    List<ScenarioLibrary.Scenario> list() {
        return library.all();
    }

    @GetMapping("/{name}")
    @Operation(operationId = "getScenario", summary = "One scenario (404 when unknown)",
            responses = {
                @ApiResponse(responseCode = "200", description = "The scenario"),
                @ApiResponse(responseCode = "404", description = "Unknown scenario")})
    ScenarioLibrary.Scenario get(@Parameter(example = "seed-001-static-key") @PathVariable String name) {
        return find(name);
    }

    @PostMapping("/{name}/run")
    @Operation(operationId = "runScenario", summary = "Run a scenario",
            description = "Submits the scenario's request, with the optional overrides seed, repetitions and "
                    + "durationMs, through the same path as POST /api/v1/simulations: 202 with Location (200 for an "
                    + "Idempotency-Key replay), 400 / 422 for overrides out of their rules or limits, 503 when the "
                    + "queue is full; 404 for an unknown scenario. An advisor scenario (kind advice) goes the path "
                    + "of POST /api/v1/advice instead: 202 with Location /api/v1/advice/{id}, its repetitions the "
                    + "advice's, its seed and durationMs the sized runs'; it takes no Idempotency-Key (400). The "
                    + "body may be empty.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = Overrides.class),
                    examples = @ExampleObject(name = "overrides", value = OVERRIDES))),
            responses = {
                @ApiResponse(responseCode = "202", description = "Queued; Location names the simulation (the "
                        + "advice for kind advice)", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(anyOf = {SimulationView.class, AdviceView.class}))),
                @ApiResponse(responseCode = "200", description = "Idempotent replay: the existing simulation",
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(implementation = SimulationView.class))),
                @ApiResponse(responseCode = "400", description = "Overrides malformed or out of their rules"),
                @ApiResponse(responseCode = "404", description = "Unknown scenario"),
                @ApiResponse(responseCode = "409", description = "Idempotency-Key reused with another body"),
                @ApiResponse(responseCode = "413", description = "Body above schedsim.max-body-size"),
                @ApiResponse(responseCode = "422", description = "Beyond schedsim.limits.*"),
                @ApiResponse(responseCode = "429", description = "Over this client's per-client limits "
                        + "(Retry-After; security on)"),
                @ApiResponse(responseCode = "503", description = "Queue full (Retry-After)")})
    ResponseEntity<Object> run(HttpServletRequest http,
                               @Parameter(example = "seed-001-static-key") @PathVariable String name,
                               @RequestHeader(name = "Idempotency-Key", required = false) String key) {
        ScenarioLibrary.Scenario s = find(name);
        String body = submissions.body(http);
        Overrides o = body.isBlank() ? new Overrides(null, null, null) : submissions.read(body, Overrides.class);
        if (o == null) {
            o = new Overrides(null, null, null);
        }
        String request = library.request(s, o.seed(), o.repetitions(), o.durationMs());
        if (s.advice()) {
            if (key != null) {
                // (an advice has no idempotency of its own: a second post is a second search)
                throw InvalidRequestException.of("Idempotency-Key", "an advice scenario takes none: run it once and "
                        + "read the advice at Location");
            }
            return advice.submit(request);
        }
        ResponseEntity<SimulationView> r = submissions.submit(request, key);
        return ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders()).body(r.getBody());
    }

    private ScenarioLibrary.Scenario find(String name) {
        return library.find(name).orElseThrow(() -> new NotFoundException("no scenario " + name));
    }
}
