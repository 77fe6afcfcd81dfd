package dev.schedsim.engine.spec;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A named set of feature values approximating a kernel release (the releases and their features are in
 * {@link KernelProfiles}; a request names one in {@code kernel.profile}, docs/api.md "The request").
 *
 * @param name        the version label, e.g. {@code "6.18"}
 * @param approximate true when the release in which a feature appeared is only approximately known
 * @param features    the value of every feature
 * @param baseSliceNs EEVDF {@code sysctl_sched_base_slice} before CPU-count scaling (0.75 ms up to 6.14,
 *                    0.70 ms from 6.15, commit 2ae891b82695)
 * @param description one line on what the profile stands for
 */
public record KernelProfile(String name, boolean approximate, Map<Feature, Boolean> features, long baseSliceNs,
                            String description) {
    public KernelProfile {
        EnumMap<Feature, Boolean> copy = new EnumMap<>(Feature.class);
        copy.putAll(features);
        for (Feature f : Feature.values()) {
            if (!copy.containsKey(f)) {
                throw new IllegalArgumentException("profile " + name + " lacks feature " + f);
            }
        }
        features = Collections.unmodifiableMap(copy);
    }

    public boolean enabled(Feature f) {
        return features.get(f);
    }
}
