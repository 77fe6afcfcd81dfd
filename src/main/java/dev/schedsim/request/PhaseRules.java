package dev.schedsim.request;

import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.http.Violations;
import dev.schedsim.request.SimulationRequest.EventRequest;
import dev.schedsim.request.SimulationRequest.PhaseRequest;
import dev.schedsim.request.SimulationRequest.TimerRequest;
import dev.schedsim.request.SimulationRequest.WorkloadRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The rules of a {@code phases} workload (rt-app's thread model) and its engine kind. */
final class PhaseRules {
    /** Longest event, delay or stop, µs (a bound that keeps every time in ns within a long). */
    static final long MAX_US = 1_000_000_000_000L;
    /** {@link #MAX_US} for the schema's maximum. */
    static final String MAX_US_TEXT = "" + MAX_US;

    private PhaseRules() {
    }

    static void check(WorkloadRequest w, String p, Violations v) {
        if (w.loop() != null && w.loop() != -1 && w.loop() < 1) {
            v.add(p + ".loop", "must be -1 (until the end) or >= 1");
        }
        if (w.delayUs() != null && (w.delayUs() < 0 || w.delayUs() > MAX_US)) {
            v.add(p + ".delayUs", "must be in 0.." + MAX_US);
        }
        if (w.stopUs() != null && (w.stopUs() <= 0 || w.stopUs() > MAX_US)) {
            v.add(p + ".stopUs", "must be in 1.." + MAX_US + " (omit it for none)");
        }
        List<PhaseRequest> phases = w.phases();
        if (phases == null || phases.isEmpty()) {
            v.add(p + ".phases", "required: a non-empty list of {\"loop\": n, \"events\": [...]}");
            return;
        }
        boolean anyTime = false;
        Map<String, String> modes = new LinkedHashMap<>();
        for (int i = 0; i < phases.size(); i++) {
            PhaseRequest ph = phases.get(i);
            String f = p + ".phases[" + i + "]";
            if (ph == null || ph.events() == null || ph.events().isEmpty()) {
                v.add(f + ".events", "required: a non-empty list of {\"run\"|\"runtime\"|\"sleep\": µs} or "
                        + "{\"timer\": {\"ref\": name, \"periodUs\": µs}}");
                continue;
            }
            if (ph.loop() != null && ph.loop() < 1) {
                v.add(f + ".loop", "must be >= 1");
            }
            for (int j = 0; j < ph.events().size(); j++) {
                anyTime |= event(ph.events().get(j), f + ".events[" + j + "]", modes, v);
            }
        }
        if (!anyTime) {
            v.add(p + ".phases", "every event takes no time: give a run, runtime or sleep > 0, or a timer");
        }
    }

    /** Checks one event; whether it takes time. */
    private static boolean event(EventRequest e, String f, Map<String, String> modes, Violations v) {
        int given = e == null ? 0 : (e.run() != null ? 1 : 0) + (e.runtime() != null ? 1 : 0)
                + (e.sleep() != null ? 1 : 0) + (e.timer() != null ? 1 : 0);
        if (given != 1) {
            v.add(f, "must have exactly one of run, runtime, sleep and timer");
            return false;
        }
        if (e.timer() == null) {
            long us = e.run() != null ? e.run() : e.runtime() != null ? e.runtime() : e.sleep();
            if (us < 0 || us > MAX_US) {
                v.add(f, "must be in 0.." + MAX_US + " µs");
            }
            return us > 0;
        }
        TimerRequest t = e.timer();
        if (t.ref() == null || t.ref().isEmpty()) {
            v.add(f + ".timer.ref", "required: the timer's name (\"unique...\" for one per thread)");
        }
        if (t.periodUs() == null || t.periodUs() <= 0 || t.periodUs() > MAX_US) {
            v.add(f + ".timer.periodUs", "required, in 1.." + MAX_US + " µs");
        }
        String mode = t.mode() == null ? "relative" : t.mode();
        if (!mode.equals("relative") && !mode.equals("absolute")) {
            v.add(f + ".timer.mode", "must be relative or absolute");
        } else if (t.ref() != null) {
            String before = modes.putIfAbsent(t.ref(), mode);
            if (before != null && !before.equals(mode)) {
                v.add(f + ".timer.mode", "timer '" + t.ref() + "' is " + before + " elsewhere: one mode per timer");
            }
        }
        return true;
    }

    /** The engine kind of a checked phases workload. */
    static WorkloadSpec.Kind kind(WorkloadRequest w) {
        Map<String, Integer> index = new LinkedHashMap<>();
        List<WorkloadSpec.Timer> timers = new ArrayList<>();
        List<WorkloadSpec.Phase> phases = new ArrayList<>();
        for (PhaseRequest ph : w.phases()) {
            List<WorkloadSpec.Event> events = new ArrayList<>();
            for (EventRequest e : ph.events()) {
                if (e.run() != null) {
                    events.add(new WorkloadSpec.Event(WorkloadSpec.EventKind.RUN, e.run(), -1));
                } else if (e.runtime() != null) {
                    events.add(new WorkloadSpec.Event(WorkloadSpec.EventKind.RUNTIME, e.runtime(), -1));
                } else if (e.sleep() != null) {
                    events.add(new WorkloadSpec.Event(WorkloadSpec.EventKind.SLEEP, e.sleep(), -1));
                } else {
                    TimerRequest t = e.timer();
                    Integer i = index.get(t.ref());
                    if (i == null) {
                        i = timers.size();
                        index.put(t.ref(), i);
                        timers.add(new WorkloadSpec.Timer(t.ref().startsWith("unique"), "absolute".equals(t.mode())));
                    }
                    events.add(new WorkloadSpec.Event(WorkloadSpec.EventKind.TIMER, t.periodUs(), i));
                }
            }
            phases.add(new WorkloadSpec.Phase(ph.loop() == null ? 1 : ph.loop(), events));
        }
        return new WorkloadSpec.Phases(w.threads(), phases, w.loop() == null ? -1 : w.loop(),
                w.delayUs() == null ? 0 : w.delayUs(), w.stopUs() == null ? 0 : w.stopUs(), timers);
    }
}
