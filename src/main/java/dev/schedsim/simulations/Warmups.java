package dev.schedsim.simulations;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.request.SimulationRequest.WarmupRequest;

/** A request's {@code warmup}: its rules, its defaults, and the engine's {@link EngineSpec.Warmup}. */
final class Warmups {
    private Warmups() {
    }

    /** The warm-up as accepted (defaults filled in), or null when the request has none; 400s go to {@code v}. */
    static WarmupRequest check(WarmupRequest w, Violations v) {
        if (w == null) {
            return null;
        }
        int runs = w.runs() == null ? 1 : w.runs();
        long gapMs = w.gapMs() == null ? 0 : w.gapMs();
        if (runs < 0 || runs > SimulationRequest.MAX_WARMUP_RUNS) {
            v.add("warmup.runs", "must be in 0.." + SimulationRequest.MAX_WARMUP_RUNS + " (each warm-up run costs "
                    + "as much as the reported one)");
        }
        if (gapMs < 0 || gapMs > SimulationRequest.MAX_WARMUP_GAP_MS) {
            v.add("warmup.gapMs", "must be in 0.." + SimulationRequest.MAX_WARMUP_GAP_MS + " ms");
        }
        return new WarmupRequest(runs, gapMs);
    }

    /** The runs each repetition simulates: its warm-up runs and the reported one. */
    static int runsEach(WarmupRequest w) {
        return w == null ? 1 : 1 + Math.max(0, w.runs());
    }

    /** The engine's warm-up of an accepted {@code w}. */
    static EngineSpec.Warmup spec(WarmupRequest w) {
        return w == null || w.runs() == 0 ? EngineSpec.Warmup.NONE : new EngineSpec.Warmup(w.runs(), w.gapMs() * 1000);
    }
}
