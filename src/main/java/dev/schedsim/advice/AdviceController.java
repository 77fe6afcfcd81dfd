package dev.schedsim.advice;

import dev.schedsim.http.NotFoundException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.StateConflictException;
import dev.schedsim.queue.Durability;
import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.security.Clients;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The limits advisor: {@code POST /api/v1/advice} searches for the smallest cpu.max (then the shorter period, then
 * the smaller burst) whose every repetition meets an objective; each step is a simulation on the ordinary queue.
 */
@RestController
@RequestMapping("/api/v1/advice")
@Tag(name = "advice", description = "Which limit, period or burst meets an objective")
class AdviceController {
    static final String ID_DOC = "The advice id returned by POST /api/v1/advice (body `id`, or the last segment of "
            + "Location)";

    private final Advices advices;
    private final AdviceDriver driver;
    private final AdviceSubmissions submissions;
    private final RequestReader reader;
    private final Durability durability;
    private final Clients clients;

    AdviceController(Advices advices, AdviceDriver driver, AdviceSubmissions submissions, RequestReader reader,
                     Durability durability, Clients clients) {
        this.clients = clients;
        this.advices = advices;
        this.driver = driver;
        this.submissions = submissions;
        this.reader = reader;
        this.durability = durability;
    }

    @PostMapping
    @Operation(operationId = "submitAdvice", summary = "Ask for the smallest limit that meets an objective",
            description = "Bisection over the quota between search.quotaUs.min and max for each period and burst "
                    + "of the grid; each setting simulated with `repetitions` seeds, all of a step as variants of "
                    + "one simulation on the queue. 202 with Location /api/v1/advice/{id}; GET it for status, "
                    + "progress and, once SUCCEEDED, recommendation, current, bracket and candidates. Instead of a "
                    + "described workload, `observed` takes what cpu.stat or cAdvisor showed (counter increases over "
                    + "one or more windows, each at its cpu.max) with `threads` and `topology`: the advisor simulates "
                    + "a grid of the periodic family (`threads` threads, each running runUs then sleeping sleepUs; "
                    + "demand between what the windows used and what an unthrottled one used, cycles 1-200 ms) at "
                    + "each window's limit, keeps those within the noise (nr_throttled/nr_periods within 2 binomial "
                    + "standard deviations plus one period, usage within 5 %), and sizes them all: the answer is the "
                    + "largest of their own answers, `observed` gives the family, the fit and the range.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
                    schema = @Schema(implementation = AdviceRequest.class),
                    examples = {
                        @ExampleObject(name = "throttled service", value = AdviceExamples.ADVICE),
                        @ExampleObject(name = "advice-burstable-pod", summary = "scenario: a Burstable pod "
                                + "throttled at low usage", value = AdviceExamples.ADVICE_BURSTABLE_POD),
                        @ExampleObject(name = "advice-latency-burst", summary = "scenario: bursts where "
                                + "cpu.max.burst is the answer", value = AdviceExamples.ADVICE_LATENCY_BURST),
                        @ExampleObject(name = "from observed counters", summary = "cpu.stat of a throttled "
                                + "cgroup, no workload described", value = AdviceExamples.ADVICE_OBSERVED)})),
            responses = {
                @ApiResponse(responseCode = "202", description = "Accepted; Location names the advice"),
                @ApiResponse(responseCode = "400", description = "Malformed JSON or invalid fields"),
                @ApiResponse(responseCode = "413", description = "Body above schedsim.max-body-size"),
                @ApiResponse(responseCode = "422", description = "The grid or the request beyond schedsim.limits.*"),
                @ApiResponse(responseCode = "429", description = "Over this client's limits (Retry-After; security "
                        + "on), or its observed advice being fitted already"),
                @ApiResponse(responseCode = "503", description = "Observed: as many fits running as "
                        + "schedsim.advice.max-concurrent-fits (Retry-After)")})
    ResponseEntity<AdviceView> submit(HttpServletRequest http) {
        return submissions.accept(reader.jsonOrYamlBody(http));
    }

    @GetMapping("/{id}")
    @Operation(operationId = "getAdvice", summary = "Read an advice: status, progress and, once SUCCEEDED, the "
            + "recommendation with its predicted figures, the current setting's, the bracket and every candidate",
            responses = {
                @ApiResponse(responseCode = "200", description = "The advice"),
                @ApiResponse(responseCode = "404", description = "Unknown advice")})
    AdviceView get(@Parameter(description = ID_DOC) @PathVariable String id) {
        return view(find(id));
    }

    @PostMapping("/{id}/cancel")
    @Operation(operationId = "cancelAdvice", summary = "Cancel a running advice and its step's simulation",
            responses = {
                @ApiResponse(responseCode = "200", description = "CANCELLED"),
                @ApiResponse(responseCode = "404", description = "Unknown advice"),
                @ApiResponse(responseCode = "409", description = "It already SUCCEEDED or FAILED")})
    AdviceView cancel(@Parameter(description = ID_DOC) @PathVariable String id) {
        Advice a = find(id);
        if (!driver.cancel(id)) {
            a = find(id);
            if (a.getStatus() != SimulationStatus.CANCELLED) {
                throw new StateConflictException("advice " + id + " already " + a.getStatus());
            }
        }
        durability.flush();
        return view(find(id));
    }

    private Advice find(String id) {
        // another client's advice is as unknown as one that does not exist
        return advices.findById(id).filter(a -> clients.sees(a.getOwner()))
                .orElseThrow(() -> new NotFoundException("no advice " + id));
    }

    AdviceView view(Advice a) {
        return AdviceView.of(a, reader, advices);
    }
}
