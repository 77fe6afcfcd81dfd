package dev.schedsim.kernels;

import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelProfile;
import dev.schedsim.engine.spec.KernelProfiles;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The kernel profiles ({@code KernelProfiles}) and their feature values, as a request names them. */
@RestController
@Tag(name = "kernel-profiles", description = "Kernel releases as feature sets")
class KernelProfileController {

    /** One profile; {@code pick} is EEVDF or CFS, {@code defaultProfile} marks the request default (newest). */
    record ProfileView(String name, boolean defaultProfile, boolean approximate, String pick, long baseSliceNs,
                       String description, Map<String, Boolean> features) {
    }

    @GetMapping("/api/v1/kernel-profiles")
    @Operation(operationId = "listKernelProfiles", summary = "Every kernel profile with its feature values; the newest is the default")
    List<ProfileView> profiles() {
        String newest = KernelProfiles.newest().name();
        return KernelProfiles.all().stream().map(p -> view(p, p.name().equals(newest))).toList();
    }

    private static ProfileView view(KernelProfile p, boolean isDefault) {
        Map<String, Boolean> features = new LinkedHashMap<>();
        for (Feature f : Feature.values()) {
            features.put(f.name(), p.enabled(f));
        }
        return new ProfileView(p.name(), isDefault, p.approximate(), p.enabled(Feature.EEVDF) ? "EEVDF" : "CFS",
                p.baseSliceNs(), p.description(), features);
    }
}
