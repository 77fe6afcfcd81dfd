package dev.schedsim.request;

import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelProfile;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * The request schema's fixed value sets, from the code that defines them (so they cannot drift): workload types,
 * kernel profiles, feature names and topology presets as enum schemas of their own ({@code WorkloadType},
 * {@code KernelProfileName}, {@code Feature}, {@code TopologyPreset}) that the fields refer to, HZ values, and the
 * fields a request cannot do without marked required. A preset field may also name a saved topology, so it is
 * "a preset, or any name": {@code anyOf} the enum and the name pattern. The features maps take feature names as
 * keys ({@code propertyNames}).
 */
@Component
class RequestSchemaEnums implements OpenApiCustomizer {
    static final String WORKLOAD_TYPE = "WorkloadType";
    static final String PROFILE = "KernelProfileName";
    static final String FEATURE = "Feature";
    static final String PRESET = "TopologyPreset";

    @Override
    public void customise(OpenAPI api) {
        if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        schemas.put(WORKLOAD_TYPE, enumSchema("a workload's type; rt-app and ftrace are imports, which become "
                + "phases and trace workloads", Workloads.TYPES));
        schemas.put(PROFILE, enumSchema("a kernel profile (GET /api/v1/kernel-profiles)",
                KernelProfiles.all().stream().map(KernelProfile::name).toList()));
        schemas.put(FEATURE, enumSchema("a scheduler feature switch (GET /api/v1/kernel-profiles shows each "
                + "profile's values)", Arrays.stream(Feature.values()).map(Enum::name).toList()));
        schemas.put(PRESET, enumSchema("a topology preset (GET /api/v1/topologies/presets)",
                TopologyPresets.all().stream().map(TopologyPresets.Preset::name).toList()));

        Schema<?> request = schemas.get("SimulationRequest");
        if (request != null) {
            // Nothing is required of every request: topology and workloads may come from kubernetes instead, and
            // durationMs from an rt-app workload's global.duration (simulations.RequestValidator says which is missing).
            request.setRequired(null);
        }
        Schema<?> workload = schemas.get("WorkloadRequest");
        if (workload != null) {
            refer(workload, "type", WORKLOAD_TYPE);
            // name: not of an import (its tasks or threads name the workloads) nor of a container's workload
            workload.setRequired(List.of("type"));
        }
        Schema<?> note = schemas.get("ImportNote");
        if (note != null) {
            refer(note, "type", WORKLOAD_TYPE);
        }
        Schema<?> kernel = schemas.get("KernelRequest");
        if (kernel != null) {
            refer(kernel, "profile", PROFILE);
            Schema<?> hz = property(kernel, "hz");
            if (hz != null) {
                @SuppressWarnings("unchecked")
                Schema<Object> h = (Schema<Object>) hz;
                h.setEnum(List.of(100, 250, 300, 1000));
                h.setDescription("timer frequency CONFIG_HZ (default " + SimulationRequest.DEFAULT_HZ + ")");
            }
            Schema<?> features = property(kernel, "features");
            if (features != null) {
                features.setDescription("feature switches over the profile's values, by name: "
                        + Arrays.stream(Feature.values()).map(Enum::name).toList());
                features.setPropertyNames(ref(FEATURE));
            }
        }
        Schema<?> profile = schemas.get("ProfileView");
        if (profile != null) {
            refer(profile, "name", PROFILE);
            Schema<?> features = property(profile, "features");
            if (features != null) {
                features.setPropertyNames(ref(FEATURE));
            }
        }
        Schema<?> cgroup = schemas.get("CgroupRequest");
        if (cgroup != null) {
            cgroup.setRequired(List.of("path"));
        }
        Schema<?> topology = schemas.get("TopologyRequest");
        Schema<?> preset = topology == null ? null : property(topology, "preset");
        if (preset != null) {
            preset.setTypes(null);
            preset.setAnyOf(List.of(ref(PRESET), new Schema<String>().types(java.util.Set.of("string"))
                    .pattern(SimulationRequest.NAME_PATTERN).description("a saved topology's name")));
            preset.setDescription("a preset (" + TopologyPresets.all().stream().map(TopologyPresets.Preset::name)
                    .toList() + ") or a saved topology's name; or give an explicit shape instead");
        }
    }

    private static Schema<String> enumSchema(String description, List<String> values) {
        Schema<String> s = new Schema<String>().types(java.util.Set.of("string")).description(description);
        s.setEnum(values);
        return s;
    }

    private static Schema<?> ref(String name) {
        return new Schema<>().$ref("#/components/schemas/" + name);
    }

    /** Makes property {@code name} of {@code s} a reference to the enum schema {@code to}, keeping its text. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void refer(Schema<?> s, String name, String to) {
        Schema<?> p = property(s, name);
        if (p != null) {
            Schema<?> r = ref(to);
            r.setDescription(p.getDescription());
            if (p.getExample() != null) {
                r.setExample(p.getExample());
            }
            ((Map) s.getProperties()).put(name, r);
        }
    }

    private static Schema<?> property(Schema<?> s, String name) {
        return s.getProperties() == null ? null : s.getProperties().get(name);
    }
}
