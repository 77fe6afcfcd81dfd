package dev.schedsim.simulations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.schedsim.SchedsimProperties;
import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.http.LimitExceededException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.json.Json;
import dev.schedsim.request.Limits;
import dev.schedsim.request.SimulationPlan;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.topologies.Topologies;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Property: the engine never throws on a request that validation accepted. Random valid requests — every workload
 * type, edge values (zero think, sleep and work times, jitter 0 and 100 %, nice -20 and 19, one-CPU affinities,
 * quotas of 1 ms, bursts, nested limits), every kernel profile, random feature switches, noise on and off — go
 * through the validator as a user's would and each variant through the engine. Seeded: a failure names the
 * iteration and the request, and replays.
 */
class AcceptedRequestsRunTests {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final long SEED = 0x7e57ab1eL;
    private static final int REQUESTS = 3000;
    private static final List<String> PRESETS = List.of("validation-2c", "desktop-8c-smt2", "xeon-2s-4c-smt2");

    final RequestReader reader = new RequestReader(new SchedsimProperties(null, null, null, null, null,
            null, null, null, null, null, null, null, null));
    final RequestValidator validator = new RequestValidator(new Topologies(null, reader),
            new Limits(null, null, null, null, null, null, null, null, null, null, null, null, null), reader);

    @Test
    void theEngineRunsEveryAcceptedRequest() {
        SplittableRandom random = new SplittableRandom(SEED);
        int accepted = 0;
        for (int i = 0; i < REQUESTS; i++) {
            String json = request(random).toString();
            RequestValidator.Accepted a;
            try {
                a = validator.accept(reader.read(json, SimulationRequest.class));
            } catch (InvalidRequestException | LimitExceededException e) {
                continue; // the generator's own mistake (e.g. an affinity beyond a small machine): not the property
            }
            accepted++;
            SimulationPlan plan = a.plan();
            for (SimulationPlan.Variant v : plan.variants()) {
                try {
                    Engine.run(v.spec(), plan.seed(), plan.eventBudget(), RunControl.NONE);
                } catch (RuntimeException e) {
                    fail("request " + i + " (seed " + SEED + "), variant " + v.label() + ": " + json, e);
                }
            }
        }
        // The generator must mostly make valid requests, or the property says little.
        assertThat(accepted).isGreaterThan(REQUESTS * 3 / 4);
    }

    /**
     * The stored form of a plan (migration V8) reads back as the same runs: for every accepted request of the same
     * generator the plan written, read and written again is the same text, and for every 100th its first variant
     * run from the plan as read gives the same report, byte for byte.
     */
    @Test
    void everyPlanReadsBackAsTheSameRuns() {
        SplittableRandom random = new SplittableRandom(SEED);
        int checked = 0;
        for (int i = 0; i < REQUESTS; i++) {
            String json = request(random).toString();
            SimulationPlan plan;
            try {
                plan = validator.accept(reader.read(json, SimulationRequest.class)).plan();
            } catch (InvalidRequestException | LimitExceededException e) {
                continue;
            }
            String stored = plan.toJson();
            SimulationPlan read = SimulationPlan.fromJson(stored);
            assertThat(read.toJson()).as("request %d: %s", i, json).isEqualTo(stored);
            assertThat(read.runs()).isEqualTo(plan.runs());
            if (checked++ % 100 == 0) {
                SimulationPlan.Variant a = plan.variants().get(0);
                SimulationPlan.Variant b = read.variants().get(0);
                assertThat(Json.write(Engine.run(b.spec(), read.seed(), read.eventBudget(), RunControl.NONE)))
                        .as("request %d: %s", i, json)
                        .isEqualTo(Json.write(Engine.run(a.spec(), plan.seed(), plan.eventBudget(), RunControl.NONE)));
            }
        }
        assertThat(checked).isGreaterThan(REQUESTS * 3 / 4);
        assertThat(SimulationPlan.fromJson(SimulationPlan.fromJson(stored()).toJson()).toJson()).isEqualTo(stored());
    }

    /** A plan as version 1 stored it: what rows written by this release hold, readable by the next. */
    private static String stored() {
        return "{\"version\":1,\"seed\":42,\"repetitions\":1,\"eventBudget\":1000,\"variants\":[{\"label\":\"default\","
                + "\"spec\":" + Json.PLAN.writeValueAsString(new dev.schedsim.engine.api.EngineSpec(TopologyPresets.byName(
                "validation-2c").spec(), dev.schedsim.engine.spec.KernelConfig.of(KernelProfiles.newest(), 250,
                java.util.Map.of(), 5000), List.of(dev.schedsim.engine.spec.CgroupSpec.unlimited("/", 100)),
                List.of(dev.schedsim.engine.spec.WorkloadSpec.periodic("w", "/", 2, 1000, 3000)), 10_000, false))
                + "}],\"cgroupLabels\":{}}";
    }

    @Test
    void aPlanOfAnotherVersionIsRefused() {
        String other = stored().replace("\"version\":1", "\"version\":2");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SimulationPlan.fromJson(other))
                .hasMessageContaining("stored plan version 2");
    }

    ObjectNode request(SplittableRandom r) {
        ObjectNode q = NODES.objectNode();
        ObjectNode topo = q.putObject("topology");
        if (r.nextInt(4) == 0) {
            topo.put("sockets", 1).put("numaNodesPerSocket", 1).put("llcsPerNumaNode", 1 + r.nextInt(2))
                    .put("coresPerLlc", 1 + r.nextInt(3)).put("threadsPerCore", 1 + r.nextInt(2));
        } else {
            topo.put("preset", PRESETS.get(r.nextInt(PRESETS.size())));
        }
        if (r.nextBoolean()) {
            topo.put("machineNoise", r.nextBoolean());
        }
        ObjectNode kernel = q.putObject("kernel");
        kernel.put("profile", KernelProfiles.all().get(r.nextInt(KernelProfiles.all().size())).name());
        kernel.put("hz", List.of(100, 250, 300, 1000).get(r.nextInt(4)));
        if (r.nextBoolean()) {
            ObjectNode f = kernel.putObject("features");
            Feature[] all = Feature.values();
            for (int k = r.nextInt(4); k > 0; k--) {
                f.put(all[r.nextInt(all.length)].name(), r.nextBoolean());
            }
        }
        if (r.nextInt(3) == 0) {
            kernel.put("bandwidthSliceUs", 1 + r.nextInt(10_000));
        }
        ArrayNode cgroups = q.putArray("cgroups");
        List<String> paths = List.of("/a", "/a/b", "/c");
        for (String p : paths) {
            ObjectNode c = cgroups.addObject().put("path", p);
            long quota = switch (r.nextInt(4)) {
                case 0 -> {
                    c.put("cpuMax", "max");
                    yield 0;
                }
                case 1 -> {
                    long us = 1000 + r.nextInt(200_000);
                    c.put("cpuMax", us + " " + (1000 + r.nextInt(200_000)));
                    yield us;
                }
                case 2 -> {
                    c.put("cpuMax", "1000 1000");
                    yield 1000;
                }
                default -> 0;
            };
            if (quota > 0 && r.nextInt(3) == 0) {
                c.put("cpuMaxBurst", r.nextLong(quota + 1)); // cpu.max.burst: at most the quota
            }
            if (r.nextBoolean()) {
                c.put("cpuWeight", 1 + r.nextInt(10_000));
            }
        }
        ArrayNode workloads = q.putArray("workloads");
        int n = 1 + r.nextInt(3);
        for (int k = 0; k < n; k++) {
            workloads.add(workload(r, "w" + k, List.of("/", "/a", "/a/b", "/c").get(r.nextInt(4))));
        }
        q.put("durationMs", 1 + r.nextInt(40));
        q.put("seed", r.nextLong());
        if (r.nextInt(4) == 0) {
            ArrayNode variants = q.putArray("variants");
            variants.addObject().put("label", "x").putObject("kernel").put("profile", "6.1");
            variants.addObject().put("label", "y").putObject("kernel").put("hz", 1000);
        }
        return q;
    }

    private ObjectNode workload(SplittableRandom r, String name, String cgroup) {
        ObjectNode w = NODES.objectNode().put("name", name).put("cgroup", cgroup);
        switch (r.nextInt(6)) {
            case 0 -> {
                w.put("type", "cpu-bound").put("threads", 1 + r.nextInt(4));
                if (r.nextBoolean()) {
                    w.put("workUs", edge(r, 20_000));
                }
            }
            case 1 -> w.put("type", "periodic").put("threads", 1 + r.nextInt(4)).put("runUs", 1 + edge(r, 3_000))
                    .put("sleepUs", edge(r, 5_000)).put("jitterPct", List.of(0, 10, 100).get(r.nextInt(3)));
            case 2 -> w.put("type", "request-response").put("pairs", 1 + r.nextInt(3))
                    .put("serviceUs", 1 + edge(r, 200)).put("thinkUs", edge(r, 200));
            case 3 -> w.put("type", "hackbench").put("groups", 1 + r.nextInt(2)).put("fdsPerGroup", 1 + r.nextInt(3))
                    .put("loops", 1 + r.nextInt(20)).put("messageUs", 1 + edge(r, 20));
            case 4 -> w.put("type", "schbench").put("messageThreads", 1 + r.nextInt(2))
                    .put("workersPerMessageThread", 1 + r.nextInt(3)).put("requestUs", 1 + edge(r, 500))
                    .put("rps", List.of(0, 1, 500, 100_000).get(r.nextInt(4)));
            default -> {
                w.put("type", "trace").put("threads", 1 + r.nextInt(3));
                ArrayNode s = w.putArray("segments");
                for (int k = 1 + r.nextInt(4); k > 0; k--) {
                    s.addObject().put(r.nextBoolean() ? "runUs" : "sleepUs", edge(r, 2_000));
                }
            }
        }
        if (r.nextInt(4) == 0) {
            w.put("nice", List.of(-20, -5, 5, 19).get(r.nextInt(4)));
        }
        if (r.nextInt(5) == 0) {
            w.put("cpus", r.nextBoolean() ? "0" : "0-1");
        }
        if (r.nextInt(5) == 0) {
            w.put("cacheFootprintKb", edge(r, 4096));
        }
        return w;
    }

    /** 0 in a quarter of the draws (the edge the validator allows), else uniform in 1..max. */
    private static long edge(SplittableRandom r, int max) {
        return r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(max);
    }

    static {
        // The presets the generator names must exist, or every request would be rejected.
        for (String p : PRESETS) {
            if (TopologyPresets.byName(p) == null) {
                throw new IllegalStateException("no preset " + p);
            }
        }
    }
}
