package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;

/** trace: every thread runs the spec's run/sleep list once, then exits; a sleep ends the timer slack late. */
final class TraceProgram extends Program {
    private final List<WorkloadSpec.Segment> segments;
    /** Per thread: the next segment. */
    private final int[] next;

    TraceProgram(WorkloadRun run, WorkloadSpec.Trace k) {
        super(run);
        this.segments = k.segments();
        this.next = new int[k.threadCount()];
    }

    @Override
    public boolean finite() {
        return true;
    }

    @Override
    protected Action step(int self, SimThread t) {
        if (next[self] >= segments.size()) {
            return Action.EXIT;
        }
        WorkloadSpec.Segment s = segments.get(next[self]++);
        run.units++;
        if (s.run()) {
            return t.run(s.us() * 1000);
        }
        return s.us() == 0 ? step(self, t) : t.sleep(s.us() * 1000, TIMER_SLACK_NS);
    }
}
