package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.RunClock;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * One workload of a run: its threads, the {@link Program} they run and what the report counts of them (wakeup
 * and request latency, completed units, completion time).
 *
 * <p><b>Limitations:</b> kernel time in system calls is modelled only as the hardware model's time per
 * sleep/wakeup; a hackbench socket buffer holds a fixed number of messages.
 */
public final class WorkloadRun {
    public final int index;
    public final WorkloadSpec spec;
    /** The workload's threads, by their index in it. */
    public final SimThread[] tasks;
    /** What the threads' programs ask the scheduler to do (wake, read the clock). */
    public final ThreadOps ops;
    public final Program program;
    /** Wakeup latency (ns), {@link LatencyHistogram#recorded grown} as needed. */
    private Histogram latency = new Histogram(3);
    /** schbench -R: request latency as schbench prints it (completion − queued − CPU time), ns; else null. */
    private Histogram requestLatency;
    public final boolean finite;
    /** Its runs last a span of each thread's own CPU clock (RunClock.THREAD_CPU), not an amount of work. */
    public final boolean threadClock;
    /** spec.footprintKb(), read at every context switch. */
    public final int footprintKb;
    /** The cache lines a request-response message moves between CPUs (RequestResponse.messageLines; else 0). */
    public final int messageLines;
    /** Threads that have not exited. */
    public int live;
    /** When the last thread exited, ns; -1 while some run. */
    public long completionNs = -1;
    /** Completed units (cycles, transactions, messages, requests, segments). */
    public long units;
    /** A warm-up run's copy of a workload (EngineSpec.Warmup): not reported, and not waited for. */
    public boolean warmup;
    /** When its run started, ns: its threads' clock (SimThread.now()) counts from here. */
    public long originNs;

    public WorkloadRun(int index, WorkloadSpec spec, ThreadOps ops) {
        this(index, spec, ops, null, null);
    }

    private WorkloadRun(int index, WorkloadSpec spec, ThreadOps ops, MachineNoise.Background background,
                        SplittableRandom random) {
        this.index = index;
        this.spec = spec;
        this.ops = ops;
        int threads = spec.threadCount();
        this.tasks = new SimThread[threads];
        this.live = threads;
        this.footprintKb = spec.footprintKb();
        this.messageLines = background == null && spec.kind() instanceof WorkloadSpec.RequestResponse rr
                ? rr.messageLines() : 0;
        this.program = background != null ? new BackgroundProgram(this, background, random)
                : Programs.of(this, spec.kind());
        this.finite = program.finite();
        this.threadClock = spec.runClock() == RunClock.THREAD_CPU;
        if (spec.kind() instanceof WorkloadSpec.Schbench s && s.rps() > 0) {
            requestLatency = new Histogram(3);
        }
    }

    /**
     * The machine's background threads of one class (not a workload of the spec, and not in the report): their
     * threads on any CPU in the root group, with their own generator.
     */
    public static WorkloadRun background(int index, MachineNoise.Background b, SplittableRandom random,
                                         ThreadOps ops) {
        // (the carrier spec gives the thread count and the cache footprint; its kind's program is not used)
        WorkloadSpec carrier = WorkloadSpec.of("machine:" + b.name(), "/", new WorkloadSpec.CpuBound(b.threads(), 0))
                .withFootprintKb(16);
        return new WorkloadRun(index, carrier, ops, b, random);
    }

    /** A woken task ran {@code ns} after its wakeup. */
    public void recordLatency(long ns) {
        Histogram h = LatencyHistogram.recorded(latency, ns);
        if (h != latency) {
            latency = h;
        }
    }

    void recordRequestLatency(long ns) {
        Histogram h = LatencyHistogram.recorded(requestLatency, ns);
        if (h != requestLatency) {
            requestLatency = h;
        }
    }

    public Histogram latency() {
        return latency;
    }

    /** schbench -R's request latency, or null. */
    public Histogram requestLatency() {
        return requestLatency;
    }

    /** Its program's next step for thread {@code self} (see {@code sched.Task.next()}). */
    public Action step(int self, SimThread t) {
        return program.step(self, t);
    }
}
