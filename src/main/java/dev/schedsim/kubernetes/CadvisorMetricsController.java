package dev.schedsim.kubernetes;

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
import dev.schedsim.result.ResultBuilder;
import dev.schedsim.security.Clients;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/simulations/{id}/metrics}: the first repetition of each variant as the counters cAdvisor
 * exports for a cgroup (google/cadvisor lib/metrics/prometheus.go: container_cpu_usage_seconds_total with
 * {@code cpu="total"} as on cgroup v2, and where the cgroup has a quota container_cpu_cfs_periods_total,
 * container_cpu_cfs_throttled_periods_total, container_cpu_cfs_throttled_seconds_total), in OpenMetrics text with
 * one sample per time-series bucket, timestamped from {@code start}: imported into Prometheus (promtool tsdb
 * create-blocks-from openmetrics), the CPUThrottlingHigh expression and cAdvisor dashboards read them as they read
 * a node's. Labels: {@code id} (the cgroup path), a pod's {@code namespace}, {@code pod} and {@code container}, and
 * {@code variant}.
 */
@RestController
@Tag(name = "simulations")
class CadvisorMetricsController {
    static final MediaType OPENMETRICS = MediaType.parseMediaType(
            "application/openmetrics-text; version=1.0.0; charset=utf-8");

    private final SimulationJobs jobs;
    private final SimulationRunReports reports;
    private final SimulationPlans plans;

    private final Clients clients;

    CadvisorMetricsController(SimulationJobs jobs, SimulationRunReports reports, SimulationPlans plans,
                              Clients clients) {
        this.clients = clients;
        this.jobs = jobs;
        this.reports = reports;
        this.plans = plans;
    }

    /** One family: cAdvisor's name (without OpenMetrics' _total), help, unit, and its value per bucket. */
    private record Family(String name, String help, String unit, boolean cfs,
                          Function<Report.CgroupSeries, List<Long>> values, boolean micros) {
    }

    private static final List<Family> FAMILIES = List.of(
            new Family("container_cpu_usage_seconds", "Cumulative cpu time consumed in seconds.", "seconds", false,
                    Report.CgroupSeries::usageUsec, true),
            new Family("container_cpu_cfs_periods", "Number of elapsed enforcement period intervals.", null, true,
                    Report.CgroupSeries::nrPeriods, false),
            new Family("container_cpu_cfs_throttled_periods", "Number of throttled period intervals.", null, true,
                    Report.CgroupSeries::nrThrottled, false),
            new Family("container_cpu_cfs_throttled_seconds",
                    "Total time duration the container has been throttled.", "seconds", true,
                    Report.CgroupSeries::throttledUsec, true));

    @GetMapping("/api/v1/simulations/{id}/metrics")
    @Operation(operationId = "getSimulationMetrics", summary = "The run's cpu.stat over time in cAdvisor's names, as "
            + "OpenMetrics text (import it into Prometheus)",
            description = "Counters per time-series bucket of the first repetition of each variant, timestamped "
                    + "from start (Unix seconds, default 0); labels id, namespace, pod, container, variant. 409 "
                    + "until the simulation has SUCCEEDED.",
            responses = {
                @ApiResponse(responseCode = "200", description = "OpenMetrics text",
                        content = @Content(mediaType = "application/openmetrics-text",
                                schema = @Schema(types = "string"))),
                @ApiResponse(responseCode = "404", description = "Unknown simulation"),
                @ApiResponse(responseCode = "409", description = "Not SUCCEEDED (yet)")})
    ResponseEntity<String> metrics(@Parameter(description = "The simulation id") @PathVariable String id,
                                   @Parameter(description = "Unix time in seconds of the simulation's start (the "
                                           + "first sample's time); default 0", example = "1767225600")
                                   @RequestParam(defaultValue = "0") long start) {
        // another client's simulation is as unknown as one that does not exist (security on)
        SimulationJob job = jobs.findById(id).filter(j -> clients.sees(j.getOwner()))
                .orElseThrow(() -> new NotFoundException("no simulation " + id));
        if (job.getStatus() != SimulationStatus.SUCCEEDED) {
            throw new StateConflictException("simulation " + id + " is " + job.getStatus()
                    + " and has no metrics yet");
        }
        if (start < 0 || start > 100_000_000_000L) {
            throw InvalidRequestException.of("start", "must be Unix seconds in 0..100000000000");
        }
        SimulationPlan plan = plans.of(job);
        List<SimulationRunReport> all = reports.findBySimulationIdOrderByRunIndex(id);
        List<Report> first = new ArrayList<>();
        for (int v = 0; v < plan.variants().size(); v++) {
            int index = v * plan.repetitions();
            SimulationRunReport run = all.stream().filter(r -> r.getRunIndex() == index).findFirst().orElse(null);
            first.add(run == null ? null : Json.STORED.readValue(run.getReportJson(), Report.class));
        }
        return ResponseEntity.ok().contentType(OPENMETRICS).body(text(plan, first, start));
    }

    static String text(SimulationPlan plan, List<Report> first, long start) {
        StringBuilder out = new StringBuilder();
        for (Family f : FAMILIES) {
            out.append("# TYPE ").append(f.name()).append(" counter\n");
            if (f.unit() != null) {
                out.append("# UNIT ").append(f.name()).append(' ').append(f.unit()).append('\n');
            }
            out.append("# HELP ").append(f.name()).append(' ').append(f.help()).append('\n');
            for (int v = 0; v < first.size(); v++) {
                Report r = first.get(v);
                if (r == null || r.timeSeries() == null) {
                    continue;
                }
                SimulationPlan.Variant variant = plan.variants().get(v);
                long bucketUs = r.timeSeries().bucketUs();
                for (Report.CgroupSeries s : r.timeSeries().cgroups()) {
                    List<Long> values = f.values().apply(s);
                    if (values == null || f.cfs() && !limited(variant, s.path())) {
                        continue;
                    }
                    String labels = labels(s.path(), plan.cgroupLabels(), variant.label(), f);
                    // A zero at the start, then the counter at each bucket's end (the last one at the run's end).
                    sample(out, f, labels, 0, start, 0);
                    for (int i = 0; i < values.size(); i++) {
                        long endUs = Math.min((i + 1) * bucketUs, r.simulatedUs());
                        sample(out, f, labels, values.get(i), start, endUs);
                    }
                }
            }
        }
        return out.append("# EOF\n").toString();
    }

    private static boolean limited(SimulationPlan.Variant v, String path) {
        for (CgroupSpec c : v.spec().cgroups()) {
            if (c.path().equals(path)) {
                return c.quotaUs() != -1;
            }
        }
        return false;
    }

    private static String labels(String path, Map<String, Map<String, String>> pods, String variant, Family f) {
        StringBuilder b = new StringBuilder("{");
        if (f.name().equals("container_cpu_usage_seconds")) {
            b.append("cpu=\"total\",");
        }
        ResultBuilder.labels(path, pods).forEach((k, val) -> b.append(k).append("=\"").append(escape(val))
                .append("\","));
        return b.append("variant=\"").append(escape(variant)).append("\"}").toString();
    }

    private static void sample(StringBuilder out, Family f, String labels, long value, long start, long atUs) {
        out.append(f.name()).append("_total").append(labels).append(' ')
                .append(f.micros() ? seconds(value) : Long.toString(value)).append(' ')
                .append(BigDecimal.valueOf(start).add(new BigDecimal(seconds(atUs))).toPlainString()).append('\n');
    }

    /** µs as seconds, exactly. */
    static String seconds(long us) {
        return BigDecimal.valueOf(us).movePointLeft(6).stripTrailingZeros().toPlainString();
    }

    /** OpenMetrics label value escaping: backslash, double quote, newline. */
    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
