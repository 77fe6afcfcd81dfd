package dev.schedsim.simulations;

import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.http.Violations;
import dev.schedsim.request.CgroupRules;
import dev.schedsim.request.SimulationRequest.CgroupRequest;
import dev.schedsim.request.SimulationRequest.VariantRequest;
import dev.schedsim.request.SimulationRequest.WorkloadRequest;
import dev.schedsim.request.SimulationRequest;
import dev.schedsim.request.Workloads;
import dev.schedsim.topologies.Topologies;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules of a request's {@code variants} and {@code sweep}: labels, kernel overrides, the grid a sweep
 * generates, and each variant's cgroups (by path) and workloads (by name) with its overrides applied and checked
 * by the request's own rules.
 */
public final class Variants {
    private final JsonMapper mapper;

    public Variants(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /** The listed variants, then the sweep's; a sweep label that a listed variant has is a violation. */
    public static List<VariantRequest> of(List<VariantRequest> listed, SimulationRequest.SweepRequest sweep,
                                   RequestValidator.Cgroups cgroups, Violations v) {
        List<VariantRequest> all = new ArrayList<>(listed(listed, v));
        for (VariantRequest x : sweep(sweep, cgroups, v)) {
            if (all.stream().anyMatch(y -> x.label().equals(y.label()))) {
                v.add("sweep", "its variant '" + x.label() + "' has the label of a listed variant");
            }
            all.add(x);
        }
        return all;
    }

    /**
     * The variants of a sweep: quota × period × burst of one cgroup of the request, labelled by their values.
     * Its size is capped by schedsim.limits.max-variants with the listed variants (checkLimits).
     */
    private static List<VariantRequest> sweep(SimulationRequest.SweepRequest s, RequestValidator.Cgroups cgroups,
                                              Violations v) {
        if (s == null) {
            return List.of();
        }
        List<VariantRequest> out = new ArrayList<>();
        // (an accepted cgroup may have no path: that one is a violation of its own, reported with the others)
        CgroupRequest base = s.cgroup() == null ? null
                : cgroups.accepted.stream().filter(c -> s.cgroup().equals(c.path())).findFirst().orElse(null);
        if (base == null) {
            v.add("sweep.cgroup", "required: the path of one of the request's cgroups (listed under cgroups)");
            return out;
        }
        SimulationRequest.Range q = s.quotaUs();
        if (q == null || q.from() == null || q.to() == null || q.step() == null) {
            v.add("sweep.quotaUs", "required: {\"from\": µs, \"to\": µs, \"step\": µs}");
            return out;
        }
        if (q.step() <= 0 || q.from() <= 0 || q.to() < q.from()) {
            v.add("sweep.quotaUs", "needs 0 < from <= to and step > 0");
            return out;
        }
        long basePeriod = CgroupRules.periodOf(base.cpuMax());
        List<Long> periods = s.periodsUs() == null || s.periodsUs().isEmpty() ? List.of(basePeriod) : s.periodsUs();
        List<Long> bursts = s.burstsUs() == null || s.burstsUs().isEmpty() ? List.of(base.cpuMaxBurst())
                : s.burstsUs();
        if (periods.stream().anyMatch(x -> x == null || x <= 0) || bursts.stream().anyMatch(x -> x == null || x < 0)) {
            v.add("sweep", "periodsUs must be > 0 and burstsUs >= 0, without nulls");
            return out;
        }
        long count = ((q.to() - q.from()) / q.step() + 1) * periods.size() * bursts.size();
        if (count > 10_000) {
            // (checkLimits names the configured limit; this only keeps the expansion itself bounded)
            v.add("sweep", "the grid has " + count + " settings; at most schedsim.limits.max-variants");
            return out;
        }
        for (long quota = q.from(); quota <= q.to(); quota += q.step()) {
            for (Long period : periods) {
                for (Long burst : bursts) {
                    String label = "q" + quota + "-p" + period + "-b" + burst;
                    out.add(new VariantRequest(label, null, List.of(new CgroupRequest(s.cgroup(), quota + " " + period,
                            burst, null)), null));
                }
            }
        }
        return out;
    }

    /**
     * The request's cgroup specs with a variant's overrides: each names a cgroup of the request by path and gives
     * the limits that differ; the merged entry is checked by the same rules.
     */
    public static List<CgroupSpec> cgroups(RequestValidator.Cgroups base, List<CgroupRequest> overrides, String p,
                                                      Violations v) {
        if (overrides == null || overrides.isEmpty()) {
            return base.specs;
        }
        List<CgroupSpec> out = new ArrayList<>(base.specs);
        for (int j = 0; j < overrides.size(); j++) {
            String f = p + ".cgroups[" + j + "]";
            CgroupRequest o = overrides.get(j);
            if (o == null || o.path() == null) {
                v.add(f + ".path", "required: the path of one of the request's cgroups");
                continue;
            }
            int at = -1;
            for (int k = 0; k < out.size(); k++) {
                if (out.get(k).path().equals(o.path())) {
                    at = k;
                }
            }
            if (at < 0) {
                v.add(f + ".path", "'" + o.path() + "' is not a cgroup of the request; a variant changes the "
                        + "limits of the request's cgroups");
                continue;
            }
            CgroupRequest was = base.accepted.stream().filter(c -> o.path().equals(c.path())).findFirst()
                    .orElse(new CgroupRequest(o.path(), null, null, null));
            CgroupRequest merged = new CgroupRequest(o.path(), o.cpuMax() != null ? o.cpuMax() : was.cpuMax(),
                    o.cpuMaxBurst() != null ? o.cpuMaxBurst() : was.cpuMaxBurst(),
                    o.cpuWeight() != null ? o.cpuWeight() : was.cpuWeight());
            CgroupSpec spec = CgroupRules.parse(merged, f, v);
            if (spec != null) {
                out.set(at, spec);
            }
        }
        return out;
    }

    /**
     * The request's workloads with a variant's overrides: each names a workload of the request and gives the
     * fields that differ (the others are the request's); the merged workload is checked by the same rules. An
     * import (rt-app, ftrace) is not such a field: it makes its own set of workloads, at the top level only, and
     * every variant runs the request's workloads (results compare them by name), so an override that gives one
     * is a 400 naming the field (it would otherwise be dropped by the check, silently).
     */
    public List<WorkloadRequest> workloads(List<WorkloadRequest> base, List<WorkloadRequest> overrides,
                                                      RequestValidator.Cgroups cgroups, Topologies.Resolved topology, String p,
                                                      Violations v) {
        if (overrides == null || overrides.isEmpty()) {
            return base;
        }
        List<WorkloadRequest> out = new ArrayList<>(base);
        for (int j = 0; j < overrides.size(); j++) {
            String f = p + ".workloads[" + j + "]";
            WorkloadRequest o = overrides.get(j);
            if (o != null && imports(o, f, v)) {
                continue;
            }
            int at = -1;
            for (int k = 0; k < out.size() && o != null; k++) {
                if (out.get(k).name() != null && out.get(k).name().equals(o.name())) {
                    at = k;
                }
            }
            if (at < 0) {
                v.add(f + ".name", "'" + (o == null ? null : o.name()) + "' is not a workload of the request");
                continue;
            }
            // The fields the override gives replace the request's (JSON objects merged, nulls absent).
            tools.jackson.databind.node.ObjectNode merged = mapper.valueToTree(out.get(at));
            merged.setAll((tools.jackson.databind.node.ObjectNode) mapper.valueToTree(o));
            WorkloadRequest w = mapper.treeToValue(merged, WorkloadRequest.class);
            String cgroup = w.cgroup() == null ? "/" : w.cgroup();
            if (!cgroups.paths.contains(cgroup)) {
                v.add(f + ".cgroup", "unknown cgroup '" + cgroup + "'; list it under cgroups");
            }
            out.set(at, Workloads.check(w, cgroup, f, topology == null ? -1 : topology.cpuCount(), v));
        }
        return out;
    }

    /** Whether override {@code o} (at {@code f}) gives an import or an import's field: each a violation. */
    private static boolean imports(WorkloadRequest o, String f, Violations v) {
        String how = ", which only the request's workloads take: a variant overrides fields of the workloads an "
                + "import became, by name (the accepted request's imports lists them); simulate another recording "
                + "or rt-app file in a request of its own";
        boolean any = false;
        if (SimulationRequest.RT_APP.equals(o.type()) || SimulationRequest.FTRACE.equals(o.type())) {
            v.add(f + ".type", "'" + o.type() + "' is an import" + how);
            any = true;
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("rtApp", o.rtApp());
        fields.put("ftrace", o.ftrace());
        fields.put("select", o.select());
        fields.put("cgroupMap", o.cgroupMap());
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (e.getValue() != null) {
                v.add(f + "." + e.getKey(), "a field of an import" + how);
                any = true;
            }
        }
        return any;
    }

    private static List<VariantRequest> listed(List<VariantRequest> variants, Violations v) {
        if (variants == null) {
            return List.of();
        }
        Set<String> labels = new HashSet<>();
        List<VariantRequest> out = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            String p = "variants[" + i + "]";
            VariantRequest x = variants.get(i);
            if (x == null) {
                v.add(p, "must be an object with a label");
                continue;
            }
            if (x.label() == null || !SimulationRequest.NAME.matcher(x.label()).matches()) {
                v.add(p + ".label", "required, [A-Za-z0-9._-]{1,64}");
            } else if (!labels.add(x.label())) {
                v.add(p + ".label", "duplicate label '" + x.label() + "'");
            }
            if (x.kernel() != null) {
                RequestValidator.overrides(x.kernel(), p + ".kernel", v);
            }
            out.add(x);
        }
        return out;
    }
}
