package dev.schedsim.engine.machine;

import dev.schedsim.engine.core.Cpu;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.spec.MachineNoise;
import java.util.SplittableRandom;

/**
 * (model) The machine's own activity of {@link MachineNoise} that is not a thread: interrupts on busy CPUs, whose
 * time the running task loses (the kernel charges it to the task when IRQ_TIME_ACCOUNTING is off, as on the
 * validation machine), and the lateness of a sleep's timer. Owns the noise generator, seeded from the run's seed
 * apart from the run's own generator, so that a run without noise draws exactly what it drew before noise existed;
 * the background threads' programs get generators split from it.
 */
public final class MachineActivity {
    private final Timers timers;
    private final Execution execution;
    private final SplittableRandom random;
    /** Mean time between interrupts on a busy CPU, ns (0: none). */
    private final double irqGapNs;
    private final double irqLogMedian;
    private final double irqSigma;
    private final double jitterNs;

    public MachineActivity(MachineNoise noise, long seed, Timers timers, Execution execution) {
        this.timers = timers;
        this.execution = execution;
        // (a fixed odd constant mixed in: the noise's stream is not the run's)
        this.random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        this.irqGapNs = noise.irqPerSec() > 0 ? 1e9 / noise.irqPerSec() : 0;
        this.irqLogMedian = noise.irqMedianNs() > 0 ? Math.log(noise.irqMedianNs()) : 0;
        this.irqSigma = noise.irqSigma();
        this.jitterNs = noise.timerJitterNs();
    }

    /** A generator for one background thread class's program (split off in a fixed order). */
    public SplittableRandom split() {
        return random.split();
    }

    /** The CPU starts running tasks: its interrupts start (the gaps are memoryless, so they start afresh). */
    public void cpuBusy(Cpu cpu) {
        if (irqGapNs > 0) {
            timers.queue.arm(timers.irq(cpu.id), cpu.workSince + exponential(irqGapNs), Timers.PRIO_IRQ);
        }
    }

    /** The CPU goes idle: its interrupts are no longer anyone's time. */
    public void cpuIdle(Cpu cpu) {
        if (irqGapNs > 0) {
            timers.queue.cancel(timers.irq(cpu.id));
        }
    }

    /** An interrupt on a busy CPU: the running task stalls while it is handled; the next one is armed. */
    public void irq(Cpu cpu, long now) {
        if (cpu.curr != null) {
            execution.stall(cpu, Math.round(lognormal(irqLogMedian, irqSigma)));
        }
        timers.queue.arm(timers.irq(cpu.id), now + exponential(irqGapNs), Timers.PRIO_IRQ);
    }

    /** How late a sleep's timer fires beyond its slack, ns. */
    public long timerLateness() {
        return jitterNs > 0 ? exponential(jitterNs) : 0;
    }

    private long exponential(double mean) {
        return 1 + (long) (-mean * Math.log(1 - random.nextDouble()));
    }

    private double lognormal(double logMedian, double sigma) {
        return Math.exp(logMedian + sigma * gaussian(random));
    }

    /** A standard normal draw (Box-Muller; one of the pair, for a stream that depends only on the count). */
    public static double gaussian(SplittableRandom r) {
        double u = 1 - r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
