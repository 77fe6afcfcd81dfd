package dev.schedsim.engine.spec;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The resolved kernel of one run: profile, tick rate, every feature's value and the bandwidth slice.
 *
 * @param profile          the profile name the values started from
 * @param hz               CONFIG_HZ: 100, 250, 300 or 1000
 * @param features         every feature's value after the request's overrides
 * @param bandwidthSliceUs sysctl_sched_cfs_bandwidth_slice_us (default 5000, min 1)
 * @param baseSliceNs      unscaled EEVDF base slice of the profile
 */
public record KernelConfig(String profile, int hz, Map<Feature, Boolean> features, long bandwidthSliceUs,
                           long baseSliceNs) {
    public KernelConfig {
        if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
            throw new IllegalArgumentException("hz must be 100, 250, 300 or 1000");
        }
        if (bandwidthSliceUs < 1) {
            throw new IllegalArgumentException("bandwidthSliceUs must be >= 1");
        }
        EnumMap<Feature, Boolean> copy = new EnumMap<>(Feature.class);
        copy.putAll(features);
        features = Collections.unmodifiableMap(copy);
    }

    /** The profile's values with the given overrides. */
    public static KernelConfig of(KernelProfile profile, int hz, Map<Feature, Boolean> overrides, long sliceUs) {
        EnumMap<Feature, Boolean> f = new EnumMap<>(profile.features());
        f.putAll(overrides);
        return new KernelConfig(profile.name(), hz, f, sliceUs, profile.baseSliceNs());
    }

    public boolean on(Feature f) {
        return Boolean.TRUE.equals(features.get(f));
    }

    /** TICK_NSEC = 1e9 / HZ (rounded as the kernel's (NSEC_PER_SEC + HZ/2) / HZ). */
    public long tickNs() {
        return (1_000_000_000L + hz / 2) / hz;
    }
}
