package dev.schedsim.metrics;

import dev.schedsim.queue.SimulationFinished;
import dev.schedsim.queue.SimulationJob;
import dev.schedsim.queue.SimulationJobs;
import dev.schedsim.queue.SimulationResults;
import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.result.ResultDocument;
import dev.schedsim.result.ResultJson;
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

/**
 * Result gauges of the last N succeeded simulations ({@code schedsim.metrics.result-simulations}, default 100),
 * labelled {@code id} (the simulation's id), {@code simulation} (its name, or the id when unnamed), {@code variant}
 * and {@code cgroup} / {@code workload}. Values are the variant means of the result document. Older simulations'
 * gauges are removed. Keyed by id, so two simulations with the same name are two series (they shared one, and
 * the newer overwrote the older). Rebuilt from the database at start-up.
 */
@Component
class ResultGauges {
    /** The quantile tag of each percentile the document gives. */
    private static final String[] QUANTILES = {"0.5", "0.9", "0.99", "0.999", "1"};

    /** The # HELP text of each gauge. */
    private static final Map<String, String> HELP = Map.of(
            "schedsim.result.cgroup.usage.seconds", "Simulated CPU time the cgroup used (cpu.stat usage_usec)",
            "schedsim.result.cgroup.periods", "Bandwidth periods that elapsed with the cgroup runnable (nr_periods)",
            "schedsim.result.cgroup.throttled.periods", "Periods in which the cgroup was throttled (nr_throttled)",
            "schedsim.result.cgroup.throttled.seconds", "Time the cgroup's CPUs spent throttled (throttled_usec)",
            "schedsim.result.cgroup.throttled.ratio", "Throttled periods over periods: cAdvisor's "
                    + "container_cpu_cfs_throttled_periods_total / container_cpu_cfs_periods_total",
            "schedsim.result.workload.wakeup.latency.seconds", "Wakeup latency (wake to run) of the workload's threads,"
                    + " by quantile",
            "schedsim.result.workload.request.latency.seconds", "schbench -R request latency, by quantile",
            "schedsim.result.workload.completion.seconds", "Simulated time at which the workload's last thread finished",
            "schedsim.result.cpu.idle.ratio", "Share of the machine's CPU time spent idle");

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
        ResultDocument result = ResultJson.read(resultJson);
        List<Key> keys = new ArrayList<>();
        for (ResultDocument.Variant v : list(result.variants())) {
            Tags base = Tags.of("id", id, "simulation", simulation, "variant", v.label());
            for (ResultDocument.Cgroup c : list(v.cgroups())) {
                Tags t = base.and("cgroup", c.path());
                ResultDocument.CpuStat s = c.cpuStat();
                double periods = d(s.nrPeriods());
                double throttled = d(s.nrThrottled());
                set(keys, id, "schedsim.result.cgroup.usage.seconds", t, d(s.usageUsec()) / 1e6);
                set(keys, id, "schedsim.result.cgroup.periods", t, periods);
                set(keys, id, "schedsim.result.cgroup.throttled.periods", t, throttled);
                set(keys, id, "schedsim.result.cgroup.throttled.seconds", t, d(s.throttledUsec()) / 1e6);
                set(keys, id, "schedsim.result.cgroup.throttled.ratio", t, periods > 0 ? throttled / periods : 0);
            }
            for (ResultDocument.Workload w : list(v.workloads())) {
                Tags t = base.and("workload", w.name());
                latency(keys, id, "schedsim.result.workload.wakeup.latency.seconds", t, w.wakeupLatencyUs());
                if (w.requestLatencyUs() != null) {
                    latency(keys, id, "schedsim.result.workload.request.latency.seconds", t, w.requestLatencyUs());
                }
                if (w.completionUs() != null) {
                    set(keys, id, "schedsim.result.workload.completion.seconds", t, w.completionUs() / 1e6);
                }
            }
            set(keys, id, "schedsim.result.cpu.idle.ratio", base, v.cpus() == null ? 0 : d(v.cpus().idlePct()) / 100);
        }
        bySimulation.put(id, keys);
        order.addLast(id);
        while (order.size() > keep) {
            evict(order.removeFirst());
        }
    }

    /** One gauge per percentile of a latency (µs in the document, seconds here). */
    private void latency(List<Key> keys, String id, String name, Tags tags, ResultDocument.Latency l) {
        Double[] values = l == null ? new Double[5] : new Double[] {l.p50(), l.p90(), l.p99(), l.p999(), l.max()};
        for (int i = 0; i < QUANTILES.length; i++) {
            set(keys, id, name, tags.and("quantile", QUANTILES[i]), d(values[i]) / 1e6);
        }
    }

    private static double d(Double x) {
        return x == null ? 0 : x;
    }

    private static <T> List<T> list(List<T> xs) {
        return xs == null ? List.of() : xs;
    }

    private void set(List<Key> keys, String id, String name, Tags tags, double value) {
        Key key = new Key(name, tags);
        Holder h = gauges.get(key);
        if (h == null) {
            Holder nh = new Holder();
            nh.gauge = Gauge.builder(name, nh, x -> x.value).tags(tags).description(HELP.get(name))
                    .strongReference(true).register(registry);
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
