package dev.schedsim.trace;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.NotFoundException;
import dev.schedsim.http.StateConflictException;
import dev.schedsim.json.Json;
import dev.schedsim.queue.SimulationJob;
import dev.schedsim.queue.SimulationJobs;
import dev.schedsim.queue.SimulationPlans;
import dev.schedsim.queue.SimulationRunReport;
import dev.schedsim.queue.SimulationRunReports;
import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.security.Clients;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /api/v1/simulations/{id}/trace}: the run's recorded scheduling events, for requests that set
 * {@code "trace": true} (the engine bounds the number of events per run). {@code format=chrome} (the default):
 * Chrome trace-event JSON of the first repetition of each variant (dev.schedsim.trace.ChromeTrace).
 * {@code format=ftrace}: the first repetition of one variant ({@code variant}, by label; the first if not
 * given) as ftrace text (dev.schedsim.trace.FtraceWriter), which Perfetto opens as CPU scheduling data.
 */
@RestController
@Tag(name = "simulations")
class TraceController {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final SimulationJobs jobs;
    private final SimulationRunReports reports;
    private final SimulationPlans plans;

    private final Clients clients;

    TraceController(SimulationJobs jobs, SimulationRunReports reports, SimulationPlans plans, Clients clients) {
        this.clients = clients;
        this.jobs = jobs;
        this.reports = reports;
        this.plans = plans;
    }

    @GetMapping(value = "/api/v1/simulations/{id}/trace", produces = {MediaType.APPLICATION_JSON_VALUE,
        MediaType.TEXT_PLAIN_VALUE})
    @Operation(operationId = "getSimulationTrace", summary = "The run's trace: Chrome trace-event JSON, or ftrace text (open either in Perfetto UI)",
            description = "format=chrome (default): per-CPU tracks of run slices and per CPU and cgroup tracks of "
                    + "throttled intervals, one process per variant. format=ftrace: one variant (variant=<label>, "
                    + "default the first) as the text of /sys/kernel/tracing/trace: sched_switch (prev_state R "
                    + "preempted, S asleep or blocked, X exited), sched_waking, sched_wakeup(_new), "
                    + "sched_migrate_task, and throttled intervals as tracing_mark_write markers. Only when the "
                    + "request set \"trace\": true (404 otherwise); 409 until the simulation has SUCCEEDED.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The trace", content = {
                    @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = TraceDocument.class)),
                    @Content(mediaType = MediaType.TEXT_PLAIN_VALUE, schema = @Schema(types = "string",
                            description = "ftrace text, as /sys/kernel/tracing/trace"))}),
                @ApiResponse(responseCode = "400", description = "Unknown format or variant"),
                @ApiResponse(responseCode = "404", description = "Unknown simulation, or no trace requested"),
                @ApiResponse(responseCode = "409", description = "Not finished (or not SUCCEEDED)")})
    ResponseEntity<String> trace(@Parameter(description = "The simulation id") @PathVariable String id,
                                 @Parameter(description = "chrome (default) or ftrace",
                                         schema = @Schema(allowableValues = {"chrome", "ftrace"},
                                                 defaultValue = "chrome"))
                                 @RequestParam(defaultValue = "chrome") String format,
                                 @Parameter(description = "ftrace only: the variant's label (default: the first)")
                                 @RequestParam(required = false) String variant) {
        if (!format.equals("chrome") && !format.equals("ftrace")) {
            throw InvalidRequestException.of("format", "must be chrome or ftrace, not '" + format + "'");
        }
        // Like GET /api/v1/simulations/{id}: another client's simulation is not there (404).
        SimulationJob job = jobs.findById(id).filter(j -> clients.sees(j.getOwner()))
                .orElseThrow(() -> new NotFoundException("no simulation " + id));
        if (job.getStatus() != SimulationStatus.SUCCEEDED) {
            throw new StateConflictException("simulation " + id + " is " + job.getStatus()
                    + " and has no trace yet");
        }
        SimulationPlan plan = plans.of(job);
        if (plan.variants().isEmpty() || !plan.variants().get(0).spec().trace()) {
            throw new NotFoundException("simulation " + id + " did not ask for a trace (set \"trace\": true)");
        }
        List<SimulationRunReport> all = reports.findBySimulationIdOrderByRunIndex(id);
        if (format.equals("ftrace")) {
            return ftrace(plan, all, variant);
        }
        ObjectNode doc = NODES.objectNode();
        ArrayNode events = doc.putArray("traceEvents");
        boolean truncated = false;
        for (int v = 0; v < plan.variants().size(); v++) {
            Report.Trace trace = trace(plan, all, v);
            if (trace == null) {
                continue;
            }
            truncated |= trace.truncated();
            EngineSpec spec = plan.variants().get(v).spec();
            ChromeTrace.addVariant(events, v, plan.variants().get(v).label(), trace, spec.topology().cpuCount(),
                    paths(spec));
        }
        doc.put("displayTimeUnit", "ms");
        doc.putObject("otherData").put("simulation", id).put("truncated", truncated);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.STORED.writeValueAsString(doc));
    }

    private ResponseEntity<String> ftrace(SimulationPlan plan, List<SimulationRunReport> all, String label) {
        int v = 0;
        if (label != null) {
            v = -1;
            for (int i = 0; i < plan.variants().size(); i++) {
                if (label.equals(plan.variants().get(i).label())) {
                    v = i;
                }
            }
            if (v < 0) {
                throw InvalidRequestException.of("variant", "no variant labelled '" + label + "'; one of "
                        + plan.variants().stream().map(SimulationPlan.Variant::label).toList());
            }
        }
        Report.Trace trace = trace(plan, all, v);
        EngineSpec spec = plan.variants().get(v).spec();
        String text = trace == null ? "" : FtraceWriter.write(trace, spec.topology().cpuCount(), paths(spec));
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(text);
    }

    /** The trace of variant v's first repetition, or null. */
    private static Report.Trace trace(SimulationPlan plan, List<SimulationRunReport> all, int v) {
        int index = v * plan.repetitions();
        SimulationRunReport run = all.stream().filter(r -> r.getRunIndex() == index).findFirst().orElse(null);
        return run == null ? null : Json.STORED.readValue(run.getReportJson(), Report.class).trace();
    }

    private static List<String> paths(EngineSpec spec) {
        return spec.cgroups().stream().map(CgroupSpec::path).toList();
    }
}
