package dev.schedsim.report;

import dev.schedsim.api.Submissions;
import dev.schedsim.security.Clients;
import dev.schedsim.engine.Report;
import dev.schedsim.simulation.SimulationJob;
import dev.schedsim.simulation.SimulationJobs;
import dev.schedsim.simulation.SimulationPlan;
import dev.schedsim.simulation.SimulationPlanner;
import dev.schedsim.simulation.StateConflictException;
import dev.schedsim.simulation.SimulationRunReport;
import dev.schedsim.simulation.SimulationRunReports;
import dev.schedsim.simulation.SimulationStatus;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /api/v1/simulations/{id}/trace}: the first repetition of each variant as Chrome trace-event JSON
 * (opens in Perfetto UI): one process per variant, a track per CPU with the tasks' run slices, and a track per
 * CPU with the cgroups' throttled intervals. Only for requests that set {@code "trace": true}; the engine bounds
 * the number of events per run.
 */
@RestController
@Tag(name = "simulations")
class TraceController {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Throttle tracks come after the CPU tracks. */
    private static final int THROTTLE_TRACK = 100_000;

    private final SimulationJobs jobs;
    private final SimulationRunReports reports;
    private final SimulationPlanner planner;

    private final Clients clients;

    TraceController(SimulationJobs jobs, SimulationRunReports reports, SimulationPlanner planner, Clients clients) {
        this.clients = clients;
        this.jobs = jobs;
        this.reports = reports;
        this.planner = planner;
    }

    @GetMapping(value = "/api/v1/simulations/{id}/trace", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getSimulationTrace", summary = "Chrome trace-event JSON of the first repetition of each variant (open it in Perfetto UI)",
            description = "Per-CPU tracks of task run slices and of throttled intervals. Only when the request set "
                    + "\"trace\": true (404 otherwise); 409 until the simulation has SUCCEEDED.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The trace"),
                @ApiResponse(responseCode = "404", description = "Unknown simulation, or no trace requested"),
                @ApiResponse(responseCode = "409", description = "Not finished (or not SUCCEEDED)")})
    ResponseEntity<String> trace(@Parameter(description = "The simulation id") @PathVariable String id) {
        // Like GET /api/v1/simulations/{id}: another client's simulation is not there (404).
        SimulationJob job = jobs.findById(id).filter(j -> clients.sees(j.getOwner()))
                .orElseThrow(() -> Submissions.notFound("no simulation " + id));
        if (job.getStatus() != SimulationStatus.SUCCEEDED) {
            throw new StateConflictException("simulation " + id + " is " + job.getStatus()
                    + " and has no trace yet");
        }
        SimulationPlan plan = planner.plan(job.getRequestJson());
        if (plan.variants().isEmpty() || !plan.variants().get(0).spec().trace()) {
            throw Submissions.notFound("simulation " + id + " did not ask for a trace (set \"trace\": true)");
        }
        List<SimulationRunReport> all = reports.findBySimulationIdOrderByRunIndex(id);
        ObjectNode doc = NODES.objectNode();
        ArrayNode events = doc.putArray("traceEvents");
        boolean truncated = false;
        for (int v = 0; v < plan.variants().size(); v++) {
            int index = v * plan.repetitions();
            SimulationRunReport run = all.stream().filter(r -> r.getRunIndex() == index).findFirst().orElse(null);
            if (run == null) {
                continue;
            }
            Report report = JSON.readValue(run.getReportJson(), Report.class);
            if (report.trace() == null) {
                continue;
            }
            truncated |= report.trace().truncated();
            meta(events, "process_name", v, 0, plan.variants().get(v).label());
            int cpus = plan.variants().get(v).spec().topology().cpuCount();
            for (int c = 0; c < cpus; c++) {
                meta(events, "thread_name", v, c, "CPU " + c);
                meta(events, "thread_name", v, THROTTLE_TRACK + c, "CPU " + c + " throttled");
            }
            for (Report.TraceEvent e : report.trace().events()) {
                ObjectNode n = events.addObject();
                boolean run1 = e.kind().equals("run");
                n.put("name", run1 ? e.name() : "throttled " + e.cgroup());
                n.put("cat", e.kind());
                n.put("ph", "X");
                n.put("ts", e.startUs());
                n.put("dur", e.durationUs());
                n.put("pid", v);
                n.put("tid", run1 ? e.cpu() : THROTTLE_TRACK + e.cpu());
                n.putObject("args").put("cgroup", e.cgroup());
            }
        }
        doc.put("displayTimeUnit", "ms");
        doc.putObject("otherData").put("simulation", id).put("truncated", truncated);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(JSON.writeValueAsString(doc));
    }

    private static void meta(ArrayNode events, String what, int pid, int tid, String name) {
        ObjectNode n = events.addObject();
        n.put("name", what);
        n.put("ph", "M");
        n.put("pid", pid);
        n.put("tid", tid);
        n.putObject("args").put("name", name);
    }
}
