package dev.schedsim.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.schedsim.simulation.SimulationJob;
import dev.schedsim.simulation.SimulationStatus;
import java.time.Instant;

/**
 * A simulation as clients see it (api.md §2). {@code request}, {@code result} and {@code error} are the stored
 * JSON documents written out verbatim, so a result reads back byte for byte as it was produced.
 * List entries leave {@code request} and {@code result} out.
 */
record SimulationView(String id, String name, SimulationStatus status, Instant createdAt, Instant startedAt,
                      Instant finishedAt, double progress, long events,
                      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String request,
                      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String result,
                      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String error) {

    /** The full view: the job with its result document (null until it SUCCEEDED). */
    static SimulationView of(SimulationJob j, String resultJson) {
        return new SimulationView(j.getId(), j.getName(), j.getStatus(), j.getCreatedAt(), j.getStartedAt(),
                j.getFinishedAt(), j.getProgress(), j.getEvents(), j.getRequestJson(), resultJson,
                j.getErrorJson());
    }

    static SimulationView summary(SimulationJob j) {
        return new SimulationView(j.getId(), j.getName(), j.getStatus(), j.getCreatedAt(), j.getStartedAt(),
                j.getFinishedAt(), j.getProgress(), j.getEvents(), null, null, j.getErrorJson());
    }
}
