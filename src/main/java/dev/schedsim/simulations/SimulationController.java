package dev.schedsim.simulations;

import dev.schedsim.http.NotFoundException;
import dev.schedsim.http.PageView;
import dev.schedsim.http.StateConflictException;
import dev.schedsim.http.Violations;
import dev.schedsim.queue.SimulationControl;
import dev.schedsim.queue.SimulationJob;
import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.security.Clients;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Submit, read, list, cancel and delete simulations (docs/api.md, "Endpoints" and "The request"). */
@RestController
@RequestMapping("/api/v1/simulations")
@Tag(name = "simulations", description = "Submit and follow simulations")
class SimulationController {
    static final String ID_DOC = "The simulation id returned by POST /api/v1/simulations (body `id`, or the last "
            + "segment of its Location header). Ids are random UUIDs, so no example id exists up front: submit "
            + "the example simulation first, then paste its id here.";

    private final SimulationControl simulations;
    private final Submissions submissions;
    private final Clients clients;

    SimulationController(SimulationControl simulations, Submissions submissions, Clients clients) {
        this.clients = clients;
        this.simulations = simulations;
        this.submissions = submissions;
    }

    @PostMapping
    @Operation(operationId = "submitSimulation", summary = "Submit a simulation",
            description = "Validates the request (400 with every violation, 422 beyond the configured limits) "
                    + "and queues it: 202 with Location. With an Idempotency-Key already used for the same body "
                    + "the existing simulation is returned with 200; for another body 409.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(implementation = SimulationRequest.class),
                    examples = {
                        @ExampleObject(name = "two-groups", summary = "Two weighted groups on validation-2c, 2 s",
                                value = SimulationExamples.SIMULATION),
                        @ExampleObject(name = "bandwidth-variants",
                                summary = "Quota-limited groups, aligned vs interleaved timers",
                                value = SimulationExamples.VARIANTS),
                        @ExampleObject(name = "warm-machine", summary = "Reported after a warm-up run on the same "
                                + "machine, as a benchmark harness runs its cases back to back",
                                value = SimulationExamples.WARMUP),
                        @ExampleObject(name = "rt-app", summary = "An rt-app JSON document as workloads and cgroups "
                                + "(traced: try GET .../trace?format=ftrace)", value = SimulationExamples.RT_APP),
                        @ExampleObject(name = "ftrace", summary = "A real recording's thread replayed on the simulated "
                                + "machine", value = SimulationExamples.FTRACE),
                        @ExampleObject(name = "kubernetes-pod",
                                summary = "A Burstable pod: its cgroups from the kubelet's rules, one container "
                                        + "throttled at its 500m limit", value = SimulationExamples.KUBERNETES)}),
                    @Content(mediaType = "application/yaml",
                            schema = @Schema(implementation = SimulationRequest.class),
                            examples = @ExampleObject(name = "kubernetes-pod-yaml",
                                    summary = "The same pod request as YAML", value = SimulationExamples.KUBERNETES_YAML))}),
            responses = {
                @ApiResponse(responseCode = "202", description = "Queued; Location names the simulation"),
                @ApiResponse(responseCode = "200", description = "Idempotent replay: the existing simulation"),
                @ApiResponse(responseCode = "400", description = "Malformed JSON or invalid fields",
                        content = @Content(mediaType = "application/problem+json",
                                examples = @ExampleObject(value = SimulationExamples.PROBLEM_400))),
                @ApiResponse(responseCode = "409", description = "Idempotency-Key reused with another body"),
                @ApiResponse(responseCode = "413", description = "Body above schedsim.max-body-size"),
                @ApiResponse(responseCode = "422", description = "Beyond schedsim.limits.*"),
                @ApiResponse(responseCode = "429", description = "Over this client's schedsim.security."
                        + "max-queued-per-client, max-queued-events-per-client or submissions-per-minute "
                        + "(Retry-After; security on)"),
                @ApiResponse(responseCode = "503", description = "Queue full (Retry-After)")})
    ResponseEntity<SimulationView> submit(HttpServletRequest http,
                                  @Parameter(description = "Optional: a key of your own (a fresh UUID "
                                          + "per logical submission) that makes the submission idempotent: the same key "
                                          + "with the same body answers the first simulation (200), with another body 409."
                                          + " Leave it empty to submit anew each time.")
                                  @RequestHeader(name = "Idempotency-Key", required = false) String key) {
        return submissions.submit(submissions.jsonOrYamlBody(http), key);
    }

    @GetMapping
    @Operation(operationId = "listSimulations", summary = "List simulations, newest first",
            description = "Spring Page shape: content, number, size, totalElements, totalPages, …; entries omit "
                    + "request and result.",
            responses = {
                @ApiResponse(responseCode = "200", description = "A page of simulations"),
                @ApiResponse(responseCode = "400", description = "A status, page or size out of its range")})
    PageView<SimulationView> list(
            @Parameter(description = "QUEUED, RUNNING, SUCCEEDED, FAILED or CANCELLED", example = "SUCCEEDED",
                    schema = @Schema(implementation = SimulationStatus.class))
            @RequestParam(required = false) String status,
            @Parameter(description = "exact name", example = "two-groups") @RequestParam(required = false)
            String name,
            @Parameter(example = "0", schema = @Schema(types = "integer", format = "int32", minimum = "0", defaultValue = "0"))
            @RequestParam(defaultValue = "0") int page,
            @Parameter(description = "1..100", example = "20",
                    schema = @Schema(types = "integer", format = "int32", minimum = "1", maximum = "100",
                            defaultValue = "20"))
            @RequestParam(defaultValue = "20") int size) {
        Violations v = new Violations();
        SimulationStatus s = null;
        if (status != null) {
            try {
                s = SimulationStatus.valueOf(status);
            } catch (IllegalArgumentException e) {
                v.add("status", "one of QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED");
            }
        }
        if (page < 0) {
            v.add("page", "must be >= 0");
        }
        if (size < 1 || size > 100) {
            v.add("size", "must be in 1..100");
        } else if ((long) page * size > Integer.MAX_VALUE) {
            // The offset page x size is an int in the query (Spring Data's PageRequest.getOffset()).
            v.add("page", "page x size must be at most " + Integer.MAX_VALUE);
        }
        v.throwIfAny();
        return PageView.of(simulations.search(s, name, clients.listFilter(), page, size), SimulationView::summary);
    }

    @GetMapping("/{id}")
    @Operation(operationId = "getSimulation", summary = "Read a simulation: status, progress, the accepted request and, once SUCCEEDED, the result",
            responses = {
                @ApiResponse(responseCode = "200", description = "The simulation"),
                @ApiResponse(responseCode = "404", description = "Unknown simulation")})
    SimulationView get(@Parameter(description = ID_DOC) @PathVariable String id) {
        SimulationJob job = find(id);
        return SimulationView.of(job, simulations.result(job));
    }

    @GetMapping(value = "/{id}/result", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getSimulationResult", summary = "The result document alone, byte for byte as stored (409 until SUCCEEDED)",
            responses = {
                @ApiResponse(responseCode = "200", description = "The result document", content = @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(implementation = dev.schedsim.result.ResultDocument.class))),
                @ApiResponse(responseCode = "404", description = "Unknown simulation"),
                @ApiResponse(responseCode = "409", description = "Not SUCCEEDED (yet)")})
    ResponseEntity<String> result(@Parameter(description = ID_DOC) @PathVariable String id) {
        SimulationJob job = find(id);
        String result = simulations.result(job);
        if (result == null) {
            throw new StateConflictException("simulation " + id + " is " + job.getStatus()
                    + " and has no result");
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(result);
    }

    @PostMapping("/{id}/cancel")
    @Operation(operationId = "cancelSimulation", summary = "Cancel a queued or running simulation",
            description = "200 with status CANCELLED (also when it was already cancelled); 409 when it already "
                    + "SUCCEEDED or FAILED.",
            responses = {
                @ApiResponse(responseCode = "200", description = "CANCELLED (now, or before)"),
                @ApiResponse(responseCode = "404", description = "No such simulation"),
                @ApiResponse(responseCode = "409", description = "It already SUCCEEDED or FAILED")})
    SimulationView cancel(@Parameter(description = ID_DOC) @PathVariable String id) {
        find(id);
        return SimulationView.of(simulations.cancel(id).orElseThrow(() -> notFound(id)), null);
    }

    @DeleteMapping("/{id}")
    @Operation(operationId = "deleteSimulation", summary = "Delete a finished simulation and its result",
            description = "204; 409 while QUEUED or RUNNING (cancel it first); 404 when unknown.",
            responses = {
                @ApiResponse(responseCode = "204", description = "Deleted"),
                @ApiResponse(responseCode = "404", description = "No such simulation"),
                @ApiResponse(responseCode = "409", description = "Still QUEUED or RUNNING: cancel it first")})
    ResponseEntity<Void> delete(@Parameter(description = ID_DOC) @PathVariable String id) {
        find(id);
        if (!simulations.delete(id)) {
            throw notFound(id);
        }
        return ResponseEntity.noContent().build();
    }

    private SimulationJob find(String id) {
        // Another client's simulation is not there for this one: 404, as for an unknown id.
        return simulations.find(id).filter(j -> clients.sees(j.getOwner())).orElseThrow(() -> notFound(id));
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException("no simulation " + id);
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
