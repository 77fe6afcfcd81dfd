package dev.schedsim.metrics;

import dev.schedsim.queue.SimulationControl;
import dev.schedsim.queue.SimulationFinished;
import dev.schedsim.queue.SimulationStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The service meters: submissions, finished jobs by outcome, queue depth (counted in the database, so every
 * instance reports the shared queue), job wall time and engine work.
 */
@Component
public class ServiceMetrics {
    private final Counter submitted;
    private final Map<SimulationStatus, Counter> finished = new EnumMap<>(SimulationStatus.class);
    private final Timer duration;
    private final Counter engineEvents;
    private final Counter simulatedSeconds;

    ServiceMetrics(MeterRegistry registry, SimulationControl queue) {
        submitted = Counter.builder("schedsim.simulations.submitted")
                .description("Simulations accepted (202)").register(registry);
        for (SimulationStatus s : new SimulationStatus[] {SimulationStatus.SUCCEEDED, SimulationStatus.FAILED,
                SimulationStatus.CANCELLED}) {
            finished.put(s, Counter.builder("schedsim.simulations.finished")
                    .description("Simulations that reached a final state, by outcome")
                    .tag("outcome", s.name().toLowerCase(Locale.ROOT)).register(registry));
        }
        Gauge.builder("schedsim.simulations.queued", queue, q -> q.count(SimulationStatus.QUEUED))
                .description("Simulations waiting for a worker").register(registry);
        Gauge.builder("schedsim.simulations.running", queue, q -> q.count(SimulationStatus.RUNNING))
                .description("Simulations being run").register(registry);
        duration = Timer.builder("schedsim.simulation.duration")
                .description("Wall time of a simulation job, all variants and repetitions")
                .publishPercentileHistogram().register(registry);
        engineEvents = Counter.builder("schedsim.engine.events")
                .description("Engine events processed").register(registry);
        simulatedSeconds = Counter.builder("schedsim.engine.simulated.seconds")
                .description("Simulated time over all runs").register(registry);
    }

    /** Counts an accepted submission. */
    public void submitted() {
        submitted.increment();
    }

    @EventListener
    void on(SimulationFinished e) {
        Counter c = finished.get(e.outcome());
        if (c != null) {
            c.increment();
        }
        duration.record(e.wallTime());
        engineEvents.increment(e.events());
        simulatedSeconds.increment(e.simulatedUs() / 1e6);
    }
}
