package dev.schedsim.simulations;

import dev.schedsim.SchedsimProperties;
import dev.schedsim.http.RequestReader;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.topologies.Topologies;

/**
 * The plan the service makes of a request at the default limits, without a service: for tests that must know a
 * request's estimated cost before they start one (a budget set to so many of its runs).
 */
public final class StandalonePlans {
    private static final RequestReader READER = new RequestReader(new SchedsimProperties(null, null, null, null,
            null, null, null, null, null, null, null, null, null));
    private static final RequestValidator VALIDATOR = new RequestValidator(new Topologies(null, READER),
            new Limits(null, null, null, null, null, null, null, null, null, null, null, null, null), READER);

    private StandalonePlans() {
    }

    /** The plan of {@code json}, a request with presets or inline topologies only. */
    public static SimulationPlan plan(String json) {
        return accept(json).plan();
    }

    /** {@code json} as accepted (defaults filled in) and its plan; throws the service's 400 and 422 exceptions. */
    public static RequestValidator.Accepted accept(String json) {
        return VALIDATOR.accept(READER.read(json, SimulationRequest.class));
    }

    /** The reader the service reads bodies with (unknown fields and wrong types refused). */
    public static RequestReader reader() {
        return READER;
    }

    /** A validator held to {@code limits} (for the advisor's rules, which check each step's simulation with it). */
    public static RequestValidator validator(Limits limits) {
        return new RequestValidator(new Topologies(null, READER), limits, READER);
    }
}
