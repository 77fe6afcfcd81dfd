package dev.schedsim.topologies;

import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest.HardwareRequest;
import dev.schedsim.request.SimulationRequest.TopologyRequest;
import dev.schedsim.request.SimulationRequest;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Resolves the {@code topology} of a request: a preset, a saved topology (by the same {@code preset} field) or
 * an explicit shape with hardware overrides. The CPU count is known before the spec is built, so that a
 * request for a huge machine is refused (422) without allocating it.
 */
@Component
public class Topologies {
    private final SavedTopologies saved;
    private final RequestReader reader;

    private final dev.schedsim.security.Clients clients;

    /** Without security (saved topologies visible to all): for the tests that resolve requests alone. */
    public Topologies(SavedTopologies saved, RequestReader reader) {
        this(saved, reader, dev.schedsim.security.Clients.off());
    }

    @org.springframework.beans.factory.annotation.Autowired
    Topologies(SavedTopologies saved, RequestReader reader, dev.schedsim.security.Clients clients) {
        this.clients = clients;
        this.saved = saved;
        this.reader = reader;
    }

    /** A validated topology: its CPU count and how to build its spec. */
    public record Resolved(long cpuCount, Supplier<TopologySpec> spec) {
    }

    /** Validates {@code t} (field names under {@code prefix}); null when it broke a rule. */
    public Resolved resolve(TopologyRequest t, String prefix, Violations v) {
        Resolved r = resolveShape(t, prefix, v);
        if (r == null || t.machineNoise() == null || t.machineNoise()) {
            return r;
        }
        Supplier<TopologySpec> shape = r.spec();
        return new Resolved(r.cpuCount(), () -> quiet(shape.get()));
    }

    /** The machine without its own activity (MachineNoise.NONE). */
    private static TopologySpec quiet(TopologySpec t) {
        return t.withHardware(t.hardware().withNoise(MachineNoise.NONE));
    }

    private Resolved resolveShape(TopologyRequest t, String prefix, Violations v) {
        if (t == null) {
            v.add(prefix, "required: { \"preset\": NAME } or explicit sockets, numaNodesPerSocket, llcsPerNumaNode, "
                    + "coresPerLlc, threadsPerCore");
            return null;
        }
        if (t.preset() != null) {
            if (t.explicit()) {
                v.add(prefix, "give either a preset or an explicit shape, not both");
                return null;
            }
            TopologyPresets.Preset p = TopologyPresets.byName(t.preset());
            if (p != null) {
                return new Resolved(p.spec().cpuCount(), p::spec);
            }
            // A saved topology's name matches NAME: anything else (a NUL byte, which PostgreSQL refuses in a
            // query) is unknown without asking the database.
            SavedTopology s = SimulationRequest.NAME.matcher(t.preset()).matches()
                    ? saved.findById(t.preset()).filter(x -> clients.sees(x.getOwner())).orElse(null) : null;
            if (s == null) {
                v.add(prefix + ".preset", "unknown topology '" + t.preset()
                        + "'; see GET /api/v1/topologies/presets or save one with POST /api/v1/topologies");
                return null;
            }
            TopologyRequest stored = reader.read(s.getDefinitionJson(), SavedTopologyRequest.class).topology();
            return explicit(stored, prefix, v);
        }
        return explicit(t, prefix, v);
    }

    /** An explicit shape only (saved topologies). */
    Resolved explicit(TopologyRequest t, String prefix, Violations v) {
        int before = v.size();
        count(t.sockets(), prefix + ".sockets", v);
        count(t.numaNodesPerSocket(), prefix + ".numaNodesPerSocket", v);
        count(t.llcsPerNumaNode(), prefix + ".llcsPerNumaNode", v);
        count(t.coresPerLlc(), prefix + ".coresPerLlc", v);
        count(t.threadsPerCore(), prefix + ".threadsPerCore", v);
        if (v.size() > before) {
            return null;
        }
        long llcs = (long) t.sockets() * t.numaNodesPerSocket() * t.llcsPerNumaNode();
        long cores = llcs * t.coresPerLlc();
        if (t.llcCores() != null) {
            if (t.llcCores().size() != llcs) {
                v.add(prefix + ".llcCores", "must list one core count per LLC (" + llcs + ")");
            } else {
                cores = 0;
                for (int i = 0; i < t.llcCores().size(); i++) {
                    Integer c = t.llcCores().get(i);
                    if (c == null || c < 1) {
                        v.add(prefix + ".llcCores[" + i + "]", "must be >= 1");
                    } else {
                        cores += c;
                    }
                }
            }
        }
        HardwareRequest h = t.hardware();
        if (h != null) {
            hardware(h, t.threadsPerCore(), prefix + ".hardware", v);
        }
        if (v.size() > before) {
            return null;
        }
        long cpus = cores * t.threadsPerCore();
        return new Resolved(cpus, () -> new TopologySpec(t.sockets(), t.numaNodesPerSocket(), t.llcsPerNumaNode(),
                t.coresPerLlc(), t.threadsPerCore(), t.llcCores(),
                h == null ? null : model(h, t.threadsPerCore())));
    }

    private static void count(Integer n, String field, Violations v) {
        if (n == null) {
            v.add(field, "required (>= 1)");
        } else if (n < 1) {
            v.add(field, "must be >= 1");
        }
    }

    private static void hardware(HardwareRequest h, int threadsPerCore, String prefix, Violations v) {
        int before = v.size();
        List<Double> smt = h.smtThroughput();
        if (smt != null) {
            if (smt.size() != threadsPerCore) {
                v.add(prefix + ".smtThroughput", "must list T(1)..T(threadsPerCore): " + threadsPerCore
                        + " value(s)");
            } else {
                for (int i = 0; i < smt.size(); i++) {
                    Double d = smt.get(i);
                    if (d == null || (i == 0 && d != 1.0) || (i > 0 && (!(d > 0) || d > i + 1))) {
                        v.add(prefix + ".smtThroughput[" + i + "]",
                                i == 0 ? "T(1) must be 1.0" : "must be in (0, " + (i + 1) + "]");
                    }
                }
            }
        }
        if (h.cacheRefillNsPerKb() != null) {
            if (h.cacheRefillNsPerKb().size() != 4) {
                v.add(prefix + ".cacheRefillNsPerKb", "must list 4 distances (core, LLC, node, remote node)");
            } else if (h.cacheRefillNsPerKb().stream().anyMatch(x -> x == null || x < 0)) {
                v.add(prefix + ".cacheRefillNsPerKb", "values must be >= 0");
            }
        }
        if (h.lineTransferNs() != null) {
            if (h.lineTransferNs().size() != 4) {
                v.add(prefix + ".lineTransferNs", "must list 4 distances (core, LLC, socket, other socket)");
            } else if (h.lineTransferNs().stream().anyMatch(x -> x == null || x < 0)) {
                v.add(prefix + ".lineTransferNs", "values must be >= 0");
            }
        }
        Object[][] nonNegative = {{"shallowIdleExitNs", h.shallowIdleExitNs()}, {"deepIdleExitNs", h.deepIdleExitNs()},
            {"deepIdleResidencyNs", h.deepIdleResidencyNs()}, {"coreIdleWatts", h.coreIdleWatts()},
            {"deepIdleWatts", h.deepIdleWatts()}, {"coreBusyWatts", h.coreBusyWatts()},
            {"smtThreadWatts", h.smtThreadWatts()}, {"contextSwitchNs", h.contextSwitchNs()},
            {"updateCurrNs", h.updateCurrNs()}, {"bandwidthHookNs", h.bandwidthHookNs()},
            {"idleScanPerCpuNs", h.idleScanPerCpuNs()}, {"balancePerCpuNs", h.balancePerCpuNs()},
            {"blockedAveragesPerCfsRqNs", h.blockedAveragesPerCfsRqNs()}, {"wakeKernelNs", h.wakeKernelNs()},
            {"hrtimerSleepNs", h.hrtimerSleepNs()}, {"hrtimerIrqNs", h.hrtimerIrqNs()},
            {"hrtimerReprogramNs", h.hrtimerReprogramNs()},
            {"ipiWakeNs", h.ipiWakeNs()}, {"ipiDeliveryNs", h.ipiDeliveryNs()}};
        for (Object[] f : nonNegative) {
            if (f[1] != null && ((Number) f[1]).doubleValue() < 0) {
                v.add(prefix + "." + f[0], "must be >= 0");
            }
        }
        if (v.size() == before) {
            try {
                model(h, threadsPerCore);
            } catch (IllegalArgumentException e) {
                v.add(prefix, e.getMessage());
            }
        }
    }

    /** The documented defaults with the request's overrides. */
    private static HardwareModel model(HardwareRequest h, int threadsPerCore) {
        HardwareModel d = HardwareModel.defaults(threadsPerCore);
        double[] smt = h.smtThroughput() == null ? d.smtThroughput()
                : h.smtThroughput().stream().mapToDouble(Double::doubleValue).toArray();
        long[] cache = h.cacheRefillNsPerKb() == null ? d.cacheRefillNsPerKb()
                : h.cacheRefillNsPerKb().stream().mapToLong(Long::longValue).toArray();
        long[] line = h.lineTransferNs() == null ? d.lineTransferNs()
                : h.lineTransferNs().stream().mapToLong(Long::longValue).toArray();
        return new HardwareModel(smt, cache,
                or(h.shallowIdleExitNs(), d.shallowIdleExitNs()), or(h.deepIdleExitNs(), d.deepIdleExitNs()),
                or(h.deepIdleResidencyNs(), d.deepIdleResidencyNs()), or(h.coreIdleWatts(), d.coreIdleWatts()),
                or(h.deepIdleWatts(), d.deepIdleWatts()), or(h.coreBusyWatts(), d.coreBusyWatts()),
                or(h.smtThreadWatts(), d.smtThreadWatts()), or(h.contextSwitchNs(), d.contextSwitchNs()),
                or(h.updateCurrNs(), d.updateCurrNs()), or(h.bandwidthHookNs(), d.bandwidthHookNs()),
                or(h.idleScanPerCpuNs(), d.idleScanPerCpuNs()), or(h.balancePerCpuNs(), d.balancePerCpuNs()),
                or(h.blockedAveragesPerCfsRqNs(), d.blockedAveragesPerCfsRqNs()), line,
                or(h.wakeKernelNs(), d.wakeKernelNs()),
                or(h.hrtimerSleepNs(), d.hrtimerSleepNs()), or(h.hrtimerIrqNs(), d.hrtimerIrqNs()),
                or(h.hrtimerReprogramNs(), d.hrtimerReprogramNs()),
                or(h.ipiWakeNs(), d.ipiWakeNs()), or(h.ipiDeliveryNs(), d.ipiDeliveryNs()), d.wakeClockSkipNs(), d.idleExitCpuShare(),
                d.noise(), h.busiestRqLock() != null ? h.busiestRqLock() : d.busiestRqLock());
    }

    private static long or(Long v, long d) {
        return v == null ? d : v;
    }

    private static double or(Double v, double d) {
        return v == null ? d : v;
    }
}
