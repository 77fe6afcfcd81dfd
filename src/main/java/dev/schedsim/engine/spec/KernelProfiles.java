package dev.schedsim.engine.spec;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel profiles: each release's feature values, derived from the release in which each mechanism
 * appeared or was removed (the comparisons below, with the commit in each Feature's comment).
 */
public final class KernelProfiles {
    private static final Map<String, KernelProfile> PROFILES = new LinkedHashMap<>();

    static {
        add("3.1", false, "CFS bandwidth control as first posted for 3.2, before seed 001's fixes: no static key, "
                + "the inverted slack-return condition, throttled tasks still counted in nr_running");
        add("3.2", false, "CFS bandwidth control introduced (Paul Turner, Ben Segall)");
        add("4.18", false, "per-CPU slice expiration (512ac999d275)");
        add("5.4", false, "slice expiration removed (de53fd7aedb1)");
        add("5.15", false, "newidle gate with sysctl_sched_migration_cost; SIS_PROP");
        add("5.16", false, "newidle cost tracking series (seed 003)");
        add("6.1", false, "CFS pick, SIS_UTIL, burst, cfs_rq-based throttle");
        add("6.6", true, "EEVDF; interleaved bandwidth timers (~6.4)");
        add("6.18", true, "task-based throttle (e1fad12dcb66); as 6.18.y from 6.18.5, proportional newidle balance "
                + "(NI_RANDOM, 33cf66d88306)");
        add("6.19", true, "balance due checked before sched_balance_running (3324b2180c17)");
    }

    private KernelProfiles() {
    }

    private static void add(String name, boolean approximate, String description) {
        double v = version(name);
        EnumMap<Feature, Boolean> f = new EnumMap<>(Feature.class);
        f.put(Feature.EEVDF, v >= 6.06);
        f.put(Feature.BANDWIDTH_STATIC_KEY, v >= 3.02);
        f.put(Feature.RETURN_RUNTIME_FIX, v >= 3.02);
        f.put(Feature.THROTTLE_IDLE_BALANCE, v >= 3.03);
        f.put(Feature.SLICE_EXPIRATION, v >= 4.18 && v < 5.04);
        f.put(Feature.BANDWIDTH_BURST, v >= 5.14);
        f.put(Feature.NEWIDLE_COST_BLOCKED_AVERAGES, v >= 5.16);
        f.put(Feature.NEWIDLE_DECAY_AFTER_WAIT, v >= 5.16);
        f.put(Feature.NEWIDLE_MIGRATION_COST_GATE, v < 5.16);
        f.put(Feature.SIS_UTIL, v >= 5.19);
        f.put(Feature.SIS_CACHE, false);
        f.put(Feature.BANDWIDTH_TIMER_INTERLEAVE, v >= 6.04);
        f.put(Feature.DELAY_DEQUEUE, v >= 6.12);
        f.put(Feature.PROTECT_SLICE_RESCHED, v >= 6.17);
        f.put(Feature.TASK_BASED_THROTTLE, v >= 6.18);
        f.put(Feature.BALANCE_DUE_BEFORE_SERIALIZE, v >= 6.19);
        f.put(Feature.SCHED_SKEW_TICK, false); // (a boot parameter, 0 unless set)
        f.put(Feature.REWEIGHT_PLACE_ENTITY, v >= 6.13); // (to 6.18.44 and 6.19: reverted in 7.0)
        f.put(Feature.LAG_CLAMP_MAX_SLICE, v >= 6.18); // (7.0; 6.18.y by 6.18.44, and the 6.19.y of that time)
        f.put(Feature.NI_RANDOM, v >= 6.18); // 6.18.y from 6.18.5, the validation machine's 6.18.44
        f.put(Feature.VCPU_PACK, false); // (not mainline: the validation machine's guest kernel only)
        f.put(Feature.IRQ_TIME_ACCOUNTING, false); // (a build option; off as on the validation machine)
        f.put(Feature.MIGRATED_TASK_COLD, v >= 4.0); // (3.1/3.2: no migrate_task_rq hook before 3.8)
        long baseSlice = v >= 6.15 ? 700_000L : 750_000L;
        PROFILES.put(name, new KernelProfile(name, approximate, f, baseSlice, description));
    }

    /** "6.18" → 6.18 as a comparable number (minor versions below 10 become .0x). */
    private static double version(String name) {
        String[] p = name.split("\\.");
        return Integer.parseInt(p[0]) + Integer.parseInt(p[1]) / 100.0;
    }

    public static List<KernelProfile> all() {
        return List.copyOf(PROFILES.values());
    }

    /** The newest profile: the default of a request. */
    public static KernelProfile newest() {
        KernelProfile last = null;
        for (KernelProfile p : PROFILES.values()) {
            last = p;
        }
        return last;
    }

    /** The profile of that name, or null. */
    public static KernelProfile byName(String name) {
        return PROFILES.get(name);
    }
}
