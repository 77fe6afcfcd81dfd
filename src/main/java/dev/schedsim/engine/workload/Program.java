package dev.schedsim.engine.workload;

/**
 * (model) The program every thread of one workload runs: a small state machine per thread. {@link #step} is
 * asked for the thread's next action whenever its run segment ended, it was woken, or it was created; it may
 * wake other threads of the workload on the way, as the real program's pipes and futexes would. One subclass per
 * workload type; its per-thread state is its own (arrays by thread index).
 */
public abstract class Program {
    /** current->timer_slack_ns default (50 µs): a usleep() ends that much late. */
    public static final long TIMER_SLACK_NS = 50_000;

    protected final WorkloadRun run;

    protected Program(WorkloadRun run) {
        this.run = run;
    }

    /** Whether every thread ends by itself (the run may stop once every finite workload has completed). */
    public abstract boolean finite();

    /** Thread {@code i} starts blocked, waiting for a peer to wake it (a server, a receiver, a worker). */
    public boolean startsBlocked(int i) {
        return false;
    }

    /** The next action of thread {@code self} (see the class comment). */
    protected abstract Action step(int self, SimThread t);

    /**
     * The units the report's throughput counts (cpu-bound: CPU-seconds of work done, periodic: cycles,
     * request-response: transactions, hackbench: messages, schbench: requests, trace: segments).
     */
    public double throughputUnits(long workDoneNs) {
        return run.units;
    }
}
