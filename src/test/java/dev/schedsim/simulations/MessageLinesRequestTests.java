package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.Violation;
import dev.schedsim.json.Json;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.request.SimulationRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A request-response workload's {@code messageLines} (WorkloadSpec.RequestResponse.messageLines): absent it is 0
 * in the accepted request and the engine spec; given, it reaches the spec of the request, of a variant that
 * overrides it by name, and of a pod's container; outside 0..MAX_MESSAGE_LINES it is a 400 naming the field and
 * the bounds.
 */
class MessageLinesRequestTests {
    private static final int LINES = WorkloadSpec.RequestResponse.TCP_RR_LOOPBACK_LINES;

    private static String request(String messageLines) {
        return """
                {"topology": {"preset": "validation-2c"},
                 "workloads": [{"name": "rr", "type": "request-response", "pairs": 1, "serviceUs": 20,
                                "thinkUs": 10%s}],
                 "durationMs": 20}""".formatted(messageLines == null ? "" : ", \"messageLines\": " + messageLines);
    }

    private static WorkloadSpec.RequestResponse kind(SimulationPlan plan, int variant, String workload) {
        for (WorkloadSpec w : plan.variants().get(variant).spec().workloads()) {
            if (w.name().equals(workload)) {
                return (WorkloadSpec.RequestResponse) w.kind();
            }
        }
        throw new AssertionError("no workload " + workload);
    }

    private static JsonNode acceptedWorkload(RequestValidator.Accepted a) {
        return ((JsonNode) Json.REQUEST.valueToTree(a.request())).path("workloads").get(0);
    }

    @Test
    void absentMessageLinesAreZeroInTheAcceptedRequestAndTheSpec() {
        RequestValidator.Accepted a = StandalonePlans.accept(request(null));
        assertThat(acceptedWorkload(a).path("messageLines").isNumber()).as(acceptedWorkload(a).toString()).isTrue();
        assertThat(acceptedWorkload(a).path("messageLines").asInt()).isZero();
        assertThat(kind(a.plan(), 0, "rr").messageLines()).isZero();
    }

    @Test
    void givenMessageLinesReachTheEngineSpec() {
        RequestValidator.Accepted a = StandalonePlans.accept(request(Integer.toString(LINES)));
        assertThat(acceptedWorkload(a).path("messageLines").asInt()).isEqualTo(LINES);
        assertThat(kind(a.plan(), 0, "rr").messageLines()).isEqualTo(LINES);
        // the bound itself is accepted
        assertThat(kind(StandalonePlans.plan(request(Integer.toString(SimulationRequest.MAX_MESSAGE_LINES))), 0,
                "rr").messageLines()).isEqualTo(SimulationRequest.MAX_MESSAGE_LINES);
    }

    /** A variant that sets it by name compares the same pairs with and without the lines' cost in one report. */
    @Test
    void aVariantOverridesMessageLinesByName() {
        String json = request(null).replace("\"durationMs\": 20", "\"durationMs\": 20, \"variants\": ["
                + "{\"label\": \"free\"}, {\"label\": \"tcp-rr\", \"workloads\": [{\"name\": \"rr\", "
                + "\"messageLines\": " + LINES + "}]}]");
        SimulationPlan plan = StandalonePlans.plan(json);
        assertThat(plan.variants().get(0).label()).isEqualTo("free");
        assertThat(kind(plan, 0, "rr").messageLines()).isZero();
        assertThat(kind(plan, 1, "rr").messageLines()).isEqualTo(LINES);
    }

    /** A pod's container runs the workload given for it: its messageLines too. */
    @Test
    void aPodsContainerKeepsItsMessageLines() {
        ObjectNode r = (ObjectNode) Json.REQUEST.readTree(SimulationExamples.KUBERNETES);
        ObjectNode web = (ObjectNode) r.path("kubernetes").path("workloads").path("web");
        web.removeAll();
        web.put("type", "request-response").put("pairs", 2).put("serviceUs", 50).put("messageLines", LINES);
        r.put("durationMs", 20);
        SimulationPlan plan = StandalonePlans.plan(r.toString());
        assertThat(kind(plan, 0, "web").messageLines()).isEqualTo(LINES);
    }

    private static Violation rejected(String json) {
        InvalidRequestException e = (InvalidRequestException) org.assertj.core.api.Assertions.catchThrowable(
                () -> StandalonePlans.accept(json));
        assertThat(e).as("a 400 for " + json).isNotNull();
        List<Violation> on = e.violations().stream().filter(v -> v.field().equals("workloads[0].messageLines"))
                .toList();
        assertThat(on).as(e.violations().toString()).hasSize(1);
        return on.get(0);
    }

    @Test
    void messageLinesOutsideTheirBoundsAreA400SayingTheBounds() {
        for (String bad : List.of("-1", Integer.toString(SimulationRequest.MAX_MESSAGE_LINES + 1))) {
            Violation v = rejected(request(bad));
            assertThat(v.message()).as(bad).contains("0.." + SimulationRequest.MAX_MESSAGE_LINES,
                    LINES + " for TCP_RR over loopback", "leave it out for 0");
        }
        // a wrong type is the reader's 400, not a 500
        assertThatThrownBy(() -> StandalonePlans.accept(request("\"many\""))).isInstanceOf(
                InvalidRequestException.class);
    }
}
