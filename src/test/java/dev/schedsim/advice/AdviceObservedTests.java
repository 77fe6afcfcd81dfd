package dev.schedsim.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.engine.Engine;
import dev.schedsim.engine.Report;
import dev.schedsim.engine.RunControl;
import dev.schedsim.http.RequestReader;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.simulations.RequestValidator;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Advice from observed counters: windows the engine itself produced at a known workload are fitted back (the
 * fitting range holds that workload), the advice answered through the API meets the objective for it, and bad
 * counters are 400s that say how to fix them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:advice-observed;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms",
        "schedsim.progress-interval=50ms", "schedsim.advice.poll-interval=20ms"})
class AdviceObservedTests {
    /** The workload observed: 3 threads, 7 ms of work every 20 ms (1.05 CPUs), not a point of the fit's grid. */
    static final ObservedFamily.Candidate KNOWN = new ObservedFamily.Candidate(7_000, 12_950);
    static final int THREADS = 3;
    static final SimulationRequest.TopologyRequest NODE = new SimulationRequest.TopologyRequest("validation-2c",
            null, null, null, null, null, null, null, null);

    @LocalServerPort
    int port;
    Http http;
    @Autowired
    ObservedFit fit;
    @Autowired
    RequestValidator validator;
    @Autowired
    RequestReader reader;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    /** What cpu.stat would show for {@code c} at {@code cpuMax} over {@code windowMs}: the engine's run. */
    private ObservedCounters.Window observe(ObservedFamily.Candidate c, String cpuMax, long windowMs) {
        long[] qp = ObservedCounters.cpuMax(cpuMax, "x", new dev.schedsim.http.Violations());
        ObservedCounters.Window at = new ObservedCounters.Window(qp[0], qp[1], windowMs * 1000, 1, 0, null, 1);
        var plan = validator.accept(reader.read(ObservedFit.request(c, at, THREADS, NODE), SimulationRequest.class))
                .plan();
        Report r = Engine.run(plan.variants().get(0).spec(), 7, plan.eventBudget(), RunControl.NONE);
        Report.CpuStat s = r.cgroups().stream().filter(g -> g.path().equals(ObservedFit.CGROUP)).findFirst()
                .orElseThrow().cpuStat();
        return new ObservedCounters.Window(qp[0], qp[1], r.simulatedUs(), s.nrPeriods(), s.nrThrottled(),
                s.throttledUsec(), s.usageUsec());
    }

    @Test
    void windowsOfAKnownWorkloadFitARangeThatHoldsIt() {
        List<ObservedCounters.Window> windows = List.of(observe(KNOWN, "60000 100000", 5000),
                observe(KNOWN, "110000 100000", 5000));
        long t0 = System.nanoTime();
        ObservedFit.Result r = fit.fit(windows, THREADS, NODE);
        System.out.println("fit ms " + (System.nanoTime() - t0) / 1e6 + " windows " + windows);
        r.tried().stream().limit(30).forEach(System.out::println);
        List<ObservedFit.Tried> fitting = r.fitting();
        assertThat(fitting).isNotEmpty();
        double known = KNOWN.demandCpus(THREADS);
        assertThat(fitting.get(0).demandCpus()).isLessThanOrEqualTo(known * 1.02);
        assertThat(fitting.get(fitting.size() - 1).demandCpus()).isGreaterThanOrEqualTo(known * 0.98);
    }
}
