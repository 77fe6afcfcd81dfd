package dev.schedsim.advice;

import dev.schedsim.http.Violations;
import java.util.Arrays;
import java.util.Locale;

/**
 * Objectives by name: the throttled share of periods users already alert on. CPUThrottlingHigh is
 * kube-prometheus' alert (throttled periods over periods above 25 % for 15 minutes); 10 % and 1 % are stricter
 * steps for services whose latency suffers first.
 */
enum ObjectivePreset {
    CPU_THROTTLING_HIGH("CPUThrottlingHigh", 25),
    THROTTLED_10PCT("throttled-10pct", 10),
    THROTTLED_1PCT("throttled-1pct", 1);

    final String id;
    final double maxThrottledPeriodsPct;

    ObjectivePreset(String id, double pct) {
        this.id = id;
        this.maxThrottledPeriodsPct = pct;
    }

    /** The objective with its preset turned into the figure it stands for; violations for a bad one. */
    static AdviceRequest.Objective resolve(AdviceRequest.Objective o, Violations v) {
        if (o == null || o.preset() == null) {
            return o;
        }
        ObjectivePreset p = Arrays.stream(values()).filter(x -> x.id.equalsIgnoreCase(o.preset())).findFirst()
                .orElse(null);
        if (p == null) {
            v.add("objective.preset", "'" + o.preset() + "' is not one of " + ids() + closest(o.preset()));
            return o;
        }
        if (o.maxThrottledPeriodsPct() != null) {
            v.add("objective.maxThrottledPeriodsPct", "give either preset (" + p.id + " is "
                    + (int) p.maxThrottledPeriodsPct + " %) or maxThrottledPeriodsPct, not both");
            return o;
        }
        return new AdviceRequest.Objective(p.id, p.maxThrottledPeriodsPct, o.maxP99WakeupLatencyUs(),
                o.maxP99RequestLatencyUs(), o.maxCompletionUs());
    }

    static java.util.List<String> ids() {
        return Arrays.stream(values()).map(x -> x.id).toList();
    }

    /** A hint for a near miss ("cputhrottling", "throttled-10"): the preset sharing the longest prefix. */
    private static String closest(String given) {
        String g = given.toLowerCase(Locale.ROOT);
        String best = null;
        int bestLen = 5; // (fewer shared characters is not a near miss)
        for (ObjectivePreset p : values()) {
            String id = p.id.toLowerCase(Locale.ROOT);
            int n = 0;
            while (n < Math.min(g.length(), id.length()) && g.charAt(n) == id.charAt(n)) {
                n++;
            }
            if (n >= bestLen) {
                bestLen = n;
                best = p.id;
            }
        }
        return best == null ? "" : "; did you mean '" + best + "'?";
    }
}
