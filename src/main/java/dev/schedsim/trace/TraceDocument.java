package dev.schedsim.trace;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The schema of {@code GET .../trace?format=chrome}: the Chrome trace-event document TraceController builds with
 * dev.schedsim.trace.ChromeTrace (the format Perfetto UI and chrome://tracing open). Only the OpenAPI document
 * uses it; the body is written node by node.
 */
@Schema(name = "ChromeTrace", description = "Chrome trace-event JSON: one process per variant, a thread per CPU "
        + "(run slices) and per CPU and cgroup (throttled intervals)")
record TraceDocument(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<Event> traceEvents,
        @Schema(allowableValues = "ms", requiredMode = Schema.RequiredMode.REQUIRED) String displayTimeUnit,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Other otherData) {

    @Schema(name = "ChromeTraceEvent", description = "a complete slice (ph X: ts and dur in µs) or a metadata "
            + "event (ph M: process_name or thread_name, args.name)")
    record Event(
            @Schema(description = "the thread's comm, \"throttled <cgroup>\", or for ph M process_name / "
                    + "thread_name", requiredMode = Schema.RequiredMode.REQUIRED) String name,
            @Schema(description = "run or throttled (slices only)", allowableValues = {"run", "throttled"})
            String cat,
            @Schema(allowableValues = {"X", "M"}, requiredMode = Schema.RequiredMode.REQUIRED) String ph,
            @Schema(description = "start, µs of simulated time") Double ts,
            @Schema(description = "length, µs") Double dur,
            @Schema(description = "the variant's index", requiredMode = Schema.RequiredMode.REQUIRED) Integer pid,
            @Schema(description = "the CPU, or 100000 and up for a CPU and cgroup's throttle track",
                    requiredMode = Schema.RequiredMode.REQUIRED) Integer tid,
            Args args) {
    }

    @Schema(name = "ChromeTraceArgs", description = "run slices: cgroup, pid, endState (null while still "
            + "running at the end); throttled slices: cgroup, open; ph M: name")
    record Args(@Schema(types = {"string", "null"}) String cgroup, Integer pid,
                @Schema(description = "the thread's state when the slice ended: R, S, X, or null (running at the "
                        + "trace's end)", types = {"string", "null"}) String endState,
                @Schema(description = "still throttled at the trace's end") Boolean open,
                @Schema(description = "ph M: the process's or thread's name") String name) {
    }

    @Schema(name = "ChromeTraceOtherData")
    record Other(@Schema(description = "the simulation's id", format = "uuid") String simulation,
                 @Schema(description = "true when a run recorded more events than the engine keeps")
                 boolean truncated) {
    }
}
