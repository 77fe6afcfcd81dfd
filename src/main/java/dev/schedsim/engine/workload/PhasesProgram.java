package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.Arrays;
import java.util.List;

/**
 * phases: rt-app's thread loop (rt-app.c thread_body() and run_event()). After the initial delay each thread
 * walks its phases, each phase {@code loop} times, the whole list the kind's {@code loop} times (-1: forever);
 * run is work, runtime a wall-clock spin, sleep a relative sleep, timer a sleep until the timer's next expiry:
 * t_next starts at the thread's start plus its delay (t_first) and grows by the period at each use; an expiry
 * already past is not slept, and a relative timer then restarts its grid from now. Sleeps end the timer slack
 * late (clock_nanosleep of a SCHED_OTHER thread). The report's units are phase iterations.
 */
final class PhasesProgram extends Program {
    private final List<WorkloadSpec.Phase> phases;
    private final int loop;
    private final long delayNs;
    private final long stopNs;
    private final List<WorkloadSpec.Timer> timers;
    /** Per thread: started (delay slept), the phase, its iteration, the event, the loop over all phases. */
    private final boolean[] started;
    private final int[] phase;
    private final int[] phaseLoop;
    private final int[] event;
    private final int[] threadLoop;
    /** Per timer, per thread (column 0 for a shared timer): the next expiry (ns), or -1 before its first use. */
    private final long[][] next;

    PhasesProgram(WorkloadRun run, WorkloadSpec.Phases k) {
        super(run);
        int n = k.threadCount();
        this.phases = k.phases();
        this.loop = k.loop();
        this.delayNs = k.delayUs() * 1000;
        this.stopNs = k.stopUs() * 1000;
        this.timers = k.timers();
        this.started = new boolean[n];
        this.phase = new int[n];
        this.phaseLoop = new int[n];
        this.event = new int[n];
        this.threadLoop = new int[n];
        this.next = new long[timers.size()][];
        for (int i = 0; i < timers.size(); i++) {
            next[i] = new long[timers.get(i).perThread() ? n : 1];
            Arrays.fill(next[i], -1);
        }
    }

    @Override
    public boolean finite() {
        return loop >= 0 || stopNs > 0;
    }

    @Override
    protected Action step(int self, SimThread t) {
        if (!started[self]) {
            started[self] = true;
            if (delayNs > 0) {
                return t.sleep(delayNs, TIMER_SLACK_NS);
            }
        }
        // (each pass takes an event; a timer already expired takes none, but moves its expiry past now)
        while (true) {
            if (loop >= 0 && threadLoop[self] >= loop || stopNs > 0 && t.now() >= stopNs) {
                return Action.EXIT;
            }
            WorkloadSpec.Phase p = phases.get(phase[self]);
            WorkloadSpec.Event e = p.events().get(event[self]);
            advance(self, p);
            long ns = e.us() * 1000;
            switch (e.kind()) {
                case RUN:
                    if (ns > 0) {
                        return t.run(ns);
                    }
                    break;
                case RUNTIME:
                    if (ns > 0) {
                        return t.spin(ns);
                    }
                    break;
                case SLEEP:
                    if (ns > 0) {
                        return t.sleep(ns, TIMER_SLACK_NS);
                    }
                    break;
                default:
                    long wait = timer(self, e, t.now());
                    if (wait > 0) {
                        return t.sleep(wait, TIMER_SLACK_NS);
                    }
                    break;
            }
        }
    }

    /** The timer event of {@code e}: how long to sleep until its next expiry (0: already past). */
    private long timer(int self, WorkloadSpec.Event e, long now) {
        WorkloadSpec.Timer timer = timers.get(e.timer());
        long[] slot = next[e.timer()];
        int i = timer.perThread() ? self : 0;
        if (slot[i] < 0) {
            slot[i] = delayNs; // t_first: the thread's start (time 0) plus its delay
        }
        slot[i] += e.us() * 1000;
        if (now < slot[i]) {
            return slot[i] - now;
        }
        if (!timer.absolute()) {
            slot[i] = now;
        }
        return 0;
    }

    /** Past the event just taken: the next event, phase iteration, phase, or loop over the phases. */
    private void advance(int self, WorkloadSpec.Phase p) {
        if (++event[self] < p.events().size()) {
            return;
        }
        event[self] = 0;
        run.units++;
        if (++phaseLoop[self] < p.loop()) {
            return;
        }
        phaseLoop[self] = 0;
        if (++phase[self] < phases.size()) {
            return;
        }
        phase[self] = 0;
        threadLoop[self]++;
    }
}
