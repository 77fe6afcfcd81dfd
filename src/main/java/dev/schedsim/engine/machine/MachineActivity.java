package dev.schedsim.engine.machine;

import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.spec.MachineNoise;
import java.util.SplittableRandom;

/**
 * (model) The machine's own activity of {@link MachineNoise} that is not a thread: interrupts on busy CPUs, whose
 * time the running task loses (the kernel charges it to the task when IRQ_TIME_ACCOUNTING is off, as on the
 * validation machine: {@link Execution#interrupt}), and the lateness of a sleep's timer. Owns the noise generator, seeded from the run's seed
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
    /** Mean time between host preemptions of a busy vCPU, ns (0: none), and each class's share of them. */
    private final double stallGapNs;
    private final MachineNoise.HostStall[] stalls;
    private final double[] stallShare;
    private final MachineNoise.WakeDelay wakeDelay;
    private final double afterHaltFactor;
    private final long afterHaltWindowNs;

    public MachineActivity(MachineNoise noise, long seed, Timers timers, Execution execution) {
        this.timers = timers;
        this.execution = execution;
        // (a fixed odd constant mixed in: the noise's stream is not the run's)
        this.random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        this.irqGapNs = noise.irqPerSec() > 0 ? 1e9 / noise.irqPerSec() : 0;
        this.irqLogMedian = noise.irqMedianNs() > 0 ? Math.log(noise.irqMedianNs()) : 0;
        this.irqSigma = noise.irqSigma();
        this.jitterNs = noise.timerJitterNs();
        this.stalls = noise.hostStalls().toArray(new MachineNoise.HostStall[0]);
        double rate = 0;
        for (MachineNoise.HostStall h : stalls) {
            rate += h.perSec();
        }
        this.stallGapNs = rate > 0 ? 1e9 / rate : 0;
        this.stallShare = new double[stalls.length];
        double cum = 0;
        for (int i = 0; i < stalls.length; i++) {
            cum += stalls[i].perSec() / rate;
            stallShare[i] = cum;
        }
        this.wakeDelay = noise.wakeDelay();
        this.afterHaltFactor = noise.afterHalt().irqFactor();
        this.afterHaltWindowNs = noise.afterHalt().windowNs();
    }

    /** A generator for one background thread class's program (split off in a fixed order). */
    public SplittableRandom split() {
        return random.split();
    }

    /**
     * The CPU starts running tasks: its interrupts and its host's preemptions start (the gaps are memoryless, so
     * they start afresh).
     */
    public void cpuBusy(Cpu cpu) {
        if (irqGapNs > 0) {
            timers.queue.arm(timers.irq(cpu.id), cpu.workSince + exponential(irqGapNs), Timers.PRIO_IRQ);
        }
        if (stallGapNs > 0 && cpu.stolenUntil == 0) {
            timers.queue.arm(timers.hostStall(cpu.id), cpu.workSince + exponential(stallGapNs), Timers.PRIO_IRQ);
        }
    }

    /**
     * The CPU goes idle: its interrupts are no longer anyone's time, and a halted vCPU is not preempted (a stall in
     * progress still ends).
     */
    public void cpuIdle(Cpu cpu) {
        if (irqGapNs > 0) {
            timers.queue.cancel(timers.irq(cpu.id));
        }
        if (stallGapNs > 0 && cpu.stolenUntil == 0) {
            timers.queue.cancel(timers.hostStall(cpu.id));
        }
    }

    /** How long the host's next preemption of a busy vCPU lasts (a class drawn by its share, then its length). */
    public long hostStallNs() {
        double u = random.nextDouble();
        int i = 0;
        while (i < stalls.length - 1 && u > stallShare[i]) {
            i++;
        }
        return Math.max(1, Math.round(lognormal(Math.log(stalls[i].medianNs()), stalls[i].sigma())));
    }

    /** When the host preempts this busy vCPU next, after the stall that just ended. */
    public void armNextHostStall(Cpu cpu, long now) {
        if (cpu.busy) {
            timers.queue.arm(timers.hostStall(cpu.id), now + exponential(stallGapNs), Timers.PRIO_IRQ);
        }
    }

    /** How long a halted vCPU woken now waits for its host beyond its idle exit (usually 0). */
    public long wakeDelayNs() {
        if (wakeDelay.pct() == 0 || random.nextDouble() * 100 >= wakeDelay.pct()) {
            return 0;
        }
        return Math.round(lognormal(Math.log(wakeDelay.medianNs()), wakeDelay.sigma()));
    }

    /**
     * An interrupt on a busy CPU: the running task stalls while it is handled (longer on a vCPU that halted
     * lately, {@link MachineNoise.AfterHalt}); the next one is armed.
     */
    public void irq(Cpu cpu, long now) {
        if (cpu.curr != null) {
            double ns = lognormal(irqLogMedian, irqSigma);
            if (afterHaltFactor > 1 && cpu.haltEndedAt >= 0 && now - cpu.haltEndedAt < afterHaltWindowNs) {
                ns *= afterHaltFactor;
            }
            execution.interrupt(cpu, Math.round(ns));
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
        return Math.exp(logMedian + sigma * MachineNoise.gaussian(random));
    }
}
