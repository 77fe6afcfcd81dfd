package dev.schedsim.metrics;

import dev.schedsim.simulation.SimulationFinished;
import dev.schedsim.simulation.SimulationJob;
import dev.schedsim.simulation.SimulationJobs;
import dev.schedsim.simulation.SimulationResults;
import dev.schedsim.simulation.SimulationStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Result gauges of the last N succeeded simulations ({@code schedsim.metrics.result-simulations}, default 100),
 * labelled {@code simulation} (name, or id when unnamed), {@code variant} and {@code cgroup} / {@code workload}.
 * Values are the variant means of the result document. Older simulations' gauges are removed. Two simulations
 * with the same name share label sets; the newer one's values win and the gauge stays until its last owner is
 * evicted. Rebuilt from the database at start-up.
 */
@Component
class ResultGauges {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String[][] QUANTILES = {{"0.5", "p50"}, {"0.9", "p90"}, {"0.99", "p99"},
            {"0.999", "p999"}, {"1", "max"}};

    private final MeterRegistry registry;
    private final SimulationJobs simulations;
    private final SimulationResults results;
    private final int keep;
    private final Map<Key, Holder> gauges = new HashMap<>();
    private final Deque<String> order = new ArrayDeque<>();
    private final Map<String, List<Key>> bySimulation = new HashMap<>();

    private record Key(String name, Tags tags) {
    }

    private static final class Holder {
        volatile double value;
        String owner;
        Gauge gauge;
    }

    ResultGauges(MeterRegistry registry, SimulationJobs simulations, SimulationResults results,
                 MetricsProperties properties) {
        this.registry = registry;
        this.simulations = simulations;
        this.results = results;
        this.keep = properties.resultSimulations();
    }

    @EventListener(ApplicationReadyEvent.class)
    void reload() {
        List<SimulationJob> recent = simulations.findByStatusOrderByFinishedAtDescIdDesc(SimulationStatus.SUCCEEDED,
                PageRequest.of(0, Math.max(1, keep)));
        for (int i = recent.size() - 1; i >= 0; i--) {
            SimulationJob j = recent.get(i);
            publish(j.getId(), j.label(), results.findResultJson(j.getId()).orElse(null));
        }
    }

    @EventListener
    void on(SimulationFinished e) {
        if (e.outcome() == SimulationStatus.SUCCEEDED && e.resultJson() != null) {
            publish(e.id(), e.label(), e.resultJson());
        }
    }

    synchronized void publish(String id, String simulation, String resultJson) {
        if (keep <= 0 || resultJson == null || bySimulation.containsKey(id)) {
            return;
        }
        JsonNode result = JSON.readTree(resultJson);
        List<Key> keys = new ArrayList<>();
        for (JsonNode v : result.path("variants")) {
            Tags base = Tags.of("simulation", simulation, "variant", v.path("label").asString());
            for (JsonNode c : v.path("cgroups")) {
                Tags t = base.and("cgroup", c.path("path").asString());
                JsonNode s = c.path("cpuStat");
                double periods = s.path("nrPeriods").asDouble();
                double throttled = s.path("nrThrottled").asDouble();
                set(keys, id, "schedsim.result.cgroup.usage.seconds", t, s.path("usageUsec").asDouble() / 1e6);
                set(keys, id, "schedsim.result.cgroup.periods", t, periods);
                set(keys, id, "schedsim.result.cgroup.throttled.periods", t, throttled);
                set(keys, id, "schedsim.result.cgroup.throttled.seconds", t,
                        s.path("throttledUsec").asDouble() / 1e6);
                set(keys, id, "schedsim.result.cgroup.throttled.ratio", t, periods > 0 ? throttled / periods : 0);
            }
            for (JsonNode w : v.path("workloads")) {
                Tags t = base.and("workload", w.path("name").asString());
                JsonNode lat = w.path("wakeupLatencyUs");
                for (String[] q : QUANTILES) {
                    set(keys, id, "schedsim.result.workload.wakeup.latency.seconds", t.and("quantile", q[0]),
                            lat.path(q[1]).asDouble() / 1e6);
                }
                JsonNode req = w.path("requestLatencyUs");
                if (req.isObject()) {
                    for (String[] q : QUANTILES) {
                        set(keys, id, "schedsim.result.workload.request.latency.seconds", t.and("quantile", q[0]),
                                req.path(q[1]).asDouble() / 1e6);
                    }
                }
                JsonNode completion = w.path("completionUs");
                if (completion.isNumber()) {
                    set(keys, id, "schedsim.result.workload.completion.seconds", t, completion.asDouble() / 1e6);
                }
            }
            set(keys, id, "schedsim.result.cpu.idle.ratio", base, v.path("cpus").path("idlePct").asDouble() / 100);
        }
        bySimulation.put(id, keys);
        order.addLast(id);
        while (order.size() > keep) {
            evict(order.removeFirst());
        }
    }

    private void set(List<Key> keys, String id, String name, Tags tags, double value) {
        Key key = new Key(name, tags);
        Holder h = gauges.get(key);
        if (h == null) {
            Holder nh = new Holder();
            nh.gauge = Gauge.builder(name, nh, x -> x.value).tags(tags).strongReference(true).register(registry);
            gauges.put(key, nh);
            h = nh;
        }
        h.value = value;
        h.owner = id;
        keys.add(key);
    }

    private void evict(String id) {
        List<Key> keys = bySimulation.remove(id);
        if (keys == null) {
            return;
        }
        for (Key k : keys) {
            Holder h = gauges.get(k);
            if (h != null && id.equals(h.owner)) {
                registry.remove(h.gauge);
                gauges.remove(k);
            }
        }
    }
}
