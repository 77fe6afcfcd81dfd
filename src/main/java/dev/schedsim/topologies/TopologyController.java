package dev.schedsim.topologies;

import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.http.LimitExceededException;
import dev.schedsim.http.NameConflictException;
import dev.schedsim.http.NotFoundException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.Violations;
import dev.schedsim.json.Json;
import dev.schedsim.queue.Durability;
import dev.schedsim.request.Limits;
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
import java.net.URI;
import java.time.Clock;
import java.util.List;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Topology presets (TopologyPresets; docs/model.md) and user-saved topologies. */
@RestController
@RequestMapping("/api/v1/topologies")
@Tag(name = "topologies", description = "Named machines: presets and saved topologies")
class TopologyController {
    private final Durability durability;
    private final SavedTopologies topologies;
    private final Topologies resolver;
    private final RequestReader reader;
    private final Limits limits;
    private final Clock clock;
    private final Clients clients;

    TopologyController(SavedTopologies topologies, Topologies resolver, RequestReader reader, Limits limits,
                       Clock clock, Durability durability, Clients clients) {
        this.clients = clients;
        this.durability = durability;
        this.topologies = topologies;
        this.resolver = resolver;
        this.reader = reader;
        this.limits = limits;
        this.clock = clock;
    }

    @GetMapping("/presets")
    @Operation(operationId = "listTopologyPresets", summary = "Every preset machine with its shape, CPU count and scheduling-domain levels")
    List<TopologyView> presets() {
        return TopologyPresets.all().stream().map(TopologyController::preset).toList();
    }

    @GetMapping("/presets/{name}")
    @Operation(operationId = "getTopologyPreset", summary = "One preset machine",
            responses = {
                @ApiResponse(responseCode = "200", description = "The preset"),
                @ApiResponse(responseCode = "404", description = "Unknown preset")})
    TopologyView preset(@Parameter(description = "a preset name from GET /api/v1/topologies/presets",
            example = "validation-2c") @PathVariable String name) {
        TopologyPresets.Preset p = TopologyPresets.byName(name);
        if (p == null) {
            throw new NotFoundException("no preset " + name);
        }
        return preset(p);
    }

    private static TopologyView preset(TopologyPresets.Preset p) {
        return TopologyView.of(p.name(), "preset", p.machine(), p.why(), null, p.spec());
    }

    @GetMapping
    @Operation(operationId = "listSavedTopologies", summary = "Saved topologies")
    List<TopologyView> saved() {
        return topologies.findAll().stream().filter(t -> clients.sees(t.getOwner())).map(this::view).toList();
    }

    /** Names that are not a topology's under /api/v1/topologies/{name}: a route's word, and what URLs normalise. */
    static final java.util.Set<String> RESERVED = java.util.Set.of("presets", ".", "..");

    @PostMapping
    @Operation(operationId = "saveTopology", summary = "Save a named topology",
            description = "201 with Location; the name then works as `topology.preset` of a simulation. The same "
                    + "topology saved again answers 200; 409 when the name is a preset's or saved with another "
                    + "definition; 422 beyond schedsim.limits.max-cpus.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(implementation = SavedTopologyRequest.class),
                    examples = @ExampleObject(name = "smt4-box", value = TopologyExamples.TOPOLOGY))),
            responses = {
                @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "201",
                        description = "Saved; Location names it"),
                @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "400",
                        description = "Malformed JSON or invalid fields"),
                @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "200",
                        description = "The same topology was saved already: it is returned"),
                @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "409",
                        description = "The name is a preset's or saved with another definition"),
                @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "422",
                        description = "Beyond schedsim.limits.max-cpus")})
    ResponseEntity<TopologyView> save(HttpServletRequest http) {
        SavedTopologyRequest r = reader.read(reader.body(http), SavedTopologyRequest.class);
        Violations v = new Violations();
        if (r.name() == null || !SimulationRequest.NAME.matcher(r.name()).matches()) {
            v.add("name", "required, [A-Za-z0-9._-]{1,64}");
        } else if (RESERVED.contains(r.name())) {
            // GET /api/v1/topologies/presets is the preset list: a topology so named could be saved, never read.
            v.add("name", "'" + r.name() + "' is reserved (GET /api/v1/topologies/" + r.name() + " is not a "
                    + "saved topology's address); choose another name");
        }
        if (r.description() != null && r.description().length() > 1000) {
            v.add("description", "at most 1000 characters");
        }
        Topologies.Resolved resolved = null;
        if (r.topology() == null) {
            v.add("topology", "required: explicit sockets, numaNodesPerSocket, llcsPerNumaNode, coresPerLlc, "
                    + "threadsPerCore");
        } else if (r.topology().preset() != null) {
            v.add("topology.preset", "a saved topology is an explicit shape, not a preset name");
        } else {
            resolved = resolver.explicit(r.topology(), "topology", v);
        }
        v.throwIfAny();
        if (resolved.cpuCount() > limits.maxCpus()) {
            throw new LimitExceededException(List.of(new LimitExceededException.Exceeded("schedsim.limits.max-cpus",
                    limits.maxCpus(), resolved.cpuCount(), "topology")));
        }
        if (TopologyPresets.byName(r.name()) != null) {
            throw new NameConflictException("'" + r.name() + "' is a preset");
        }
        String definition = Json.REQUEST.writeValueAsString(r);
        SavedTopology existing = topologies.findById(r.name()).orElse(null);
        if (existing != null) {
            // Names are one namespace (see README, "Security"): another client's name is taken, its topology
            // not shown.
            if (existing.getDefinitionJson().equals(definition) && clients.sees(existing.getOwner())) {
                // The same topology saved again (a retry, an example run twice): it is there, as asked.
                return ResponseEntity.ok().location(URI.create("/api/v1/topologies/" + r.name())).body(view(existing));
            }
            throw new NameConflictException(clients.sees(existing.getOwner())
                    ? "a different topology named '" + r.name() + "' is already saved"
                    : "the name '" + r.name() + "' is taken by another client's topology; choose another name");
        }
        SavedTopology saved;
        try {
            saved = topologies.saveAndFlush(new SavedTopology(r.name(), definition, clock.instant(), clients.owner()));
        } catch (DataIntegrityViolationException e) {
            throw new NameConflictException("a topology named '" + r.name() + "' is already saved");
        }
        durability.flush();
        return ResponseEntity.status(HttpStatus.CREATED).location(URI.create("/api/v1/topologies/" + r.name()))
                .body(view(saved));
    }

    @GetMapping("/{name}")
    @Operation(operationId = "getTopology", summary = "A saved topology (or a preset) by name",
            responses = {
                @ApiResponse(responseCode = "200", description = "The topology"),
                @ApiResponse(responseCode = "404", description = "Neither a saved topology nor a preset")})
    TopologyView get(@Parameter(description = "a saved topology's name (or a preset's)", example = "validation-2c")
                     @PathVariable String name) {
        return topologies.findById(name).filter(t -> clients.sees(t.getOwner())).map(this::view)
                .orElseGet(() -> preset(name));
    }

    private TopologyView view(SavedTopology s) {
        SavedTopologyRequest r = reader.read(s.getDefinitionJson(), SavedTopologyRequest.class);
        Topologies.Resolved resolved = resolver.explicit(r.topology(), "topology", new Violations());
        return TopologyView.of(s.getName(), "saved", null, null, r.description(), resolved.spec().get());
    }
}
