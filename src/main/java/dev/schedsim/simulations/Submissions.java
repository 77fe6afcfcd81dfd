package dev.schedsim.simulations;

import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.NotFoundException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.Violation;
import dev.schedsim.json.Json;
import dev.schedsim.metrics.ServiceMetrics;
import dev.schedsim.queue.SimulationControl;
import dev.schedsim.queue.SimulationSubmitter;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.security.Clients;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * The one submission path of {@code POST /api/v1/simulations}: strict reading, validation (400 / 422), queueing
 * (503 when full), idempotency, the submitted metric and the 202 + Location answer. The scenario library submits
 * its requests through it too, so a scenario run answers exactly like a simulation submitted by hand.
 */
@Component
public class Submissions {
    private final SimulationSubmitter submitter;
    private final SimulationControl simulations;
    private final RequestValidator validator;
    private final RequestReader reader;
    private final ServiceMetrics metrics;
    private final Clients clients;

    Submissions(SimulationSubmitter submitter, SimulationControl simulations, RequestValidator validator,
                RequestReader reader, ServiceMetrics metrics, Clients clients) {
        this.clients = clients;
        this.submitter = submitter;
        this.simulations = simulations;
        this.validator = validator;
        this.reader = reader;
        this.metrics = metrics;
    }

    /** The request body, bounded by {@code schedsim.max-body-size} (413 beyond). */
    public String body(HttpServletRequest http) {
        return reader.body(http);
    }

    /** The request body as JSON: as sent, or converted from YAML ({@code Content-Type: application/yaml}). */
    String jsonOrYamlBody(HttpServletRequest http) {
        return reader.jsonOrYamlBody(http);
    }

    /** Reads {@code json} strictly into {@code type}; 400 naming the field on anything wrong. */
    public <T> T read(String json, Class<T> type) {
        return reader.read(json, type);
    }

    /**
     * Submits a request body: 202 with Location and the simulation view, or 200 for an idempotent replay.
     *
     * @param key the optional Idempotency-Key header
     */
    public ResponseEntity<SimulationView> submit(String body, String key) {
        return submit(body, key, clients.owner());
    }

    /**
     * {@link #submit(String, String)} on behalf of {@code owner}: the limits advisor's steps, submitted by the
     * service for the client that asked for the advice.
     */
    public ResponseEntity<SimulationView> submit(String body, String key, String owner) {
        if (key != null && (key.isBlank() || key.length() > 255)) {
            throw new InvalidRequestException(false, List.of(new Violation("Idempotency-Key",
                    "must be 1..255 characters")));
        }
        SimulationRequest request = reader.read(body, SimulationRequest.class);
        RequestValidator.Accepted accepted = validator.accept(request);
        String json = Json.REQUEST.writeValueAsString(accepted.request());
        SimulationSubmitter.Submission s = submitter.submit(request.name(), json, accepted.plan(),
                SimulationController.sha256(json), key, owner);
        URI location = URI.create("/api/v1/simulations/" + s.job().getId());
        if (s.created()) {
            metrics.submitted();
            return ResponseEntity.status(HttpStatus.ACCEPTED).location(location)
                    .body(SimulationView.of(s.job(), null));
        }
        // A replay of the same request: the job as it stands, with its result once it SUCCEEDED.
        return ResponseEntity.ok().location(location).body(SimulationView.of(s.job(), simulations.result(s.job())));
    }

}
