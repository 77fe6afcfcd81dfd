package dev.schedsim.reports;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.http.NotFoundException;
import dev.schedsim.http.StateConflictException;
import dev.schedsim.queue.SimulationControl;
import dev.schedsim.queue.SimulationJob;
import dev.schedsim.queue.SimulationJobs;
import dev.schedsim.queue.SimulationPlans;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.security.Clients;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/simulations/{id}/report}: the finished simulation as {@code text/html} (the default, also for
 * browsers and {@code *}{@code /*}) or {@code text/markdown}; 406 for anything else, 404 for an unknown id, 409
 * until the simulation has SUCCEEDED.
 */
@RestController
@Tag(name = "simulations")
public class ReportController {
    public static final MediaType MARKDOWN = new MediaType("text", "markdown", StandardCharsets.UTF_8);
    public static final MediaType HTML = new MediaType("text", "html", StandardCharsets.UTF_8);
    private static final List<MediaType> OFFERED = List.of(MediaType.TEXT_HTML, MediaType.valueOf("text/markdown"));

    private final SimulationJobs jobs;
    private final SimulationControl queue;
    private final SimulationPlans plans;

    private final Clients clients;

    ReportController(SimulationJobs jobs, SimulationControl queue, SimulationPlans plans, Clients clients) {
        this.plans = plans;
        this.clients = clients;
        this.jobs = jobs;
        this.queue = queue;
    }

    @GetMapping("/api/v1/simulations/{id}/report")
    @Operation(operationId = "getSimulationReport", summary = "Human-readable report: request summary, per-variant tables, the comparison as kernel "
            + "postings print it, and SVG plots (HTML) of CPU occupancy and throttled time over time",
            description = "Content negotiation by Accept: text/html (default) or text/markdown; 406 otherwise. "
                    + "404 for an unknown simulation, 409 until it has SUCCEEDED.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The report", content = {
                    @Content(mediaType = "text/html", schema = @Schema(types = "string")),
                    @Content(mediaType = "text/markdown", schema = @Schema(types = "string"))}),
                @ApiResponse(responseCode = "404", description = "Unknown simulation"),
                @ApiResponse(responseCode = "406", description = "Neither text/html nor text/markdown acceptable"),
                @ApiResponse(responseCode = "409", description = "Not finished (or not SUCCEEDED)")})
    ResponseEntity<String> report(@Parameter(description = "The simulation id") @PathVariable String id,
                                  @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept)
            throws HttpMediaTypeNotAcceptableException {
        // Like GET /api/v1/simulations/{id}: another client's simulation is not there (404).
        SimulationJob job = jobs.findById(id).filter(j -> clients.sees(j.getOwner()))
                .orElseThrow(() -> new NotFoundException("no simulation " + id));
        boolean markdown = markdown(accept);
        String result = queue.result(job);
        if (result == null) {
            throw new StateConflictException("simulation " + id + " is " + job.getStatus()
                    + " and has no result to report");
        }
        SimulationPlan plan = plan(job);
        ReportRenderer r = new ReportRenderer(job.getId(), job.getName(), job.getRequestJson(), result,
                limits(plan), plan == null ? Map.of() : plan.cgroupLabels());
        return ResponseEntity.ok().contentType(markdown ? MARKDOWN : HTML).header(HttpHeaders.VARY, "Accept")
                .body(markdown ? r.markdown() : r.html());
    }

    /**
     * Each variant's cgroups as its run had them, from the job's plan (overrides and sweep applied), for the
     * verdicts. A job stored before plans were, whose request the rules no longer take (a limit lowered since),
     * gets verdicts without them.
     */
    private Map<String, Map<String, CgroupSpec>> limits(SimulationPlan plan) {
        Map<String, Map<String, CgroupSpec>> out = new LinkedHashMap<>();
        if (plan == null) {
            return out;
        }
        for (SimulationPlan.Variant v : plan.variants()) {
            Map<String, CgroupSpec> byPath = new LinkedHashMap<>();
            v.spec().cgroups().forEach(c -> byPath.put(c.path(), c));
            out.put(v.label(), byPath);
        }
        return out;
    }

    /** The job's plan, or null for a job stored before plans were whose request the rules no longer take. */
    private SimulationPlan plan(SimulationJob job) {
        try {
            return plans.of(job);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** true for Markdown, false for HTML, by the client's preference; 406 when it accepts neither. */
    public static boolean markdown(String accept) throws HttpMediaTypeNotAcceptableException {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (IllegalArgumentException e) {
            throw new HttpMediaTypeNotAcceptableException(OFFERED);
        }
        types.sort(java.util.Comparator.comparingDouble(MediaType::getQualityValue).reversed());
        for (MediaType t : types) {
            if (t.getQualityValue() <= 0) {
                continue;
            }
            if (t.includes(MediaType.TEXT_HTML)) {
                return false;
            }
            if (t.includes(MediaType.valueOf("text/markdown"))) {
                return true;
            }
        }
        throw new HttpMediaTypeNotAcceptableException(OFFERED);
    }
}
