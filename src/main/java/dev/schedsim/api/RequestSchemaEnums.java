package dev.schedsim.api;

import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelProfile;
import dev.schedsim.engine.spec.KernelProfiles;
import dev.schedsim.engine.spec.TopologyPresets;
import dev.schedsim.engine.spec.WorkloadType;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * The request schema's fixed value sets, from the code that defines them (so they cannot drift): workload types
 * and kernel profiles as enums, HZ values, the features' names and the presets in the descriptions (a preset may
 * also name a saved topology, so it is no enum), and the fields a request cannot do without marked required.
 */
@Component
class RequestSchemaEnums implements OpenApiCustomizer {
    @Override
    public void customise(OpenAPI api) {
        if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        Schema<?> request = schemas.get("SimulationRequest");
        if (request != null) {
            // topology and workloads may come from kubernetes instead (RequestValidator says which is missing).
            request.setRequired(List.of("durationMs"));
        }
        Schema<?> workload = schemas.get("WorkloadRequest");
        if (workload != null) {
            setEnum(workload, "type", Arrays.stream(WorkloadType.values()).map(WorkloadType::wireName).toList());
            workload.setRequired(List.of("name", "type"));
        }
        Schema<?> kernel = schemas.get("KernelRequest");
        if (kernel != null) {
            setEnum(kernel, "profile", KernelProfiles.all().stream().map(KernelProfile::name).toList());
            Schema<?> hz = property(kernel, "hz");
            if (hz != null) {
                @SuppressWarnings("unchecked")
                Schema<Object> h = (Schema<Object>) hz;
                h.setEnum(List.of(100, 250, 300, 1000));
                h.setDescription("timer frequency CONFIG_HZ (default " + RequestValidator.DEFAULT_HZ + ")");
            }
            Schema<?> features = property(kernel, "features");
            if (features != null) {
                features.setDescription("feature switches over the profile's values, by name: "
                        + Arrays.stream(Feature.values()).map(Enum::name).toList());
            }
        }
        Schema<?> cgroup = schemas.get("CgroupRequest");
        if (cgroup != null) {
            cgroup.setRequired(List.of("path"));
        }
        Schema<?> topology = schemas.get("TopologyRequest");
        Schema<?> preset = topology == null ? null : property(topology, "preset");
        if (preset != null) {
            preset.setDescription("a preset (" + TopologyPresets.all().stream().map(TopologyPresets.Preset::name)
                    .toList() + ") or a saved topology's name; or give an explicit shape instead");
        }
    }

    private static Schema<?> property(Schema<?> s, String name) {
        return s.getProperties() == null ? null : s.getProperties().get(name);
    }

    @SuppressWarnings("unchecked")
    private static void setEnum(Schema<?> s, String name, List<String> values) {
        Schema<?> p = property(s, name);
        if (p != null) {
            ((Schema<String>) p).setEnum(values);
        }
    }
}
