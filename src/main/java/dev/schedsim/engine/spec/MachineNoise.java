package dev.schedsim.engine.spec;

import java.util.List;
import java.util.SplittableRandom;

/**
 * (model) What a machine does besides the simulated workloads, as a computing thread on it sees it: interrupts
 * that take the CPU from whatever runs, timers that fire a little late, and background threads (the machine's
 * daemons and kernel threads) that wake now and then, run and sleep again, competing for the CPUs like any task.
 * It is what makes one run differ from the next: every quantity is drawn from the run's seed, so one seed still
 * gives one result. {@link #NONE} switches it off.
 *
 * <p>Durations are lognormal (a median and the σ of its logarithm), inter-arrival times exponential.
 *
 * @param irqPerSec        interrupts per second on a busy CPU (an idle CPU's are not modelled: they cost nothing
 *                         anyone waits for)
 * @param irqMedianNs      median time an interrupt takes from the running task (charged to it, as the kernel does
 *                         without IRQ_TIME_ACCOUNTING)
 * @param irqSigma         σ of the interrupt time's logarithm
 * @param timerJitterNs    mean lateness of a sleep's timer beyond its slack (exponential)
 * @param background       the background threads, by class
 * @param hostStalls       a virtual machine's host preempting a busy vCPU, by class (none on bare metal)
 * @param wakeDelay        a virtual machine's host making a halted vCPU wait when a timer or IPI wakes it
 *                         ({@link WakeDelay#NONE}: never)
 * @param afterHalt        a virtual machine's host taking more from a vCPU that halted lately than from one that
 *                         computes ({@link AfterHalt#NONE}: as much)
 */
public record MachineNoise(double irqPerSec, long irqMedianNs, double irqSigma, long timerJitterNs,
                           List<Background> background, List<HostStall> hostStalls, WakeDelay wakeDelay,
                           AfterHalt afterHalt) {

    /**
     * A class of background threads: {@code threads} threads on any CPU, waking {@code wakeupsPerSec} times a
     * second between them, each wakeup running for a lognormal time.
     */
    public record Background(String name, int threads, double wakeupsPerSec, long runMedianNs, double runSigma) {
        public Background {
            if (threads < 1 || !(wakeupsPerSec > 0) || runMedianNs <= 0 || runSigma < 0) {
                throw new IllegalArgumentException("background class " + name
                        + " needs threads >= 1, wakeupsPerSec > 0, runMedianNs > 0 and runSigma >= 0");
            }
        }
    }

    /**
     * A class of host preemptions of a busy vCPU: {@code perSec} a second on each busy CPU (Poisson), each stopping
     * it for a lognormal time. Nothing of the guest runs on that vCPU meanwhile — its task's work waits, its timers
     * fire at the end — and the task is not charged for it: the time is steal, which PARAVIRT_TIME_ACCOUNTING takes
     * out of the task clock (update_rq_clock_task()).
     */
    public record HostStall(String name, double perSec, long medianNs, double sigma) {
        public HostStall {
            if (!(perSec > 0) || medianNs <= 0 || sigma < 0) {
                throw new IllegalArgumentException("host stall class " + name
                        + " needs perSec > 0, medianNs > 0 and sigma >= 0");
            }
        }
    }

    /**
     * A halted vCPU woken by a timer or an IPI waits {@code pct} % of the times for its host to run it, a lognormal
     * time, beyond the idle state's exit.
     */
    public record WakeDelay(double pct, long medianNs, double sigma) {
        /** Never. */
        public static final WakeDelay NONE = new WakeDelay(0, 0, 0);

        public WakeDelay {
            if (!(pct >= 0) || pct > 100 || medianNs < 0 || (pct > 0 && medianNs == 0) || sigma < 0) {
                throw new IllegalArgumentException("a wake delay needs 0 <= pct <= 100, medianNs > 0 where pct > 0, "
                        + "sigma >= 0");
            }
        }
    }

    /**
     * What the interrupts and the host's short exits take from a vCPU's run when the vCPU halted (went idle) less
     * than {@code windowNs} before: {@code irqFactor} times what they take from a vCPU that has computed for longer
     * (the interrupt lengths are drawn as on a busy CPU and multiplied). Measured on the validation guest by
     * scripts/measure-latency.py's runGaps (src/test/c/rungaps.c: a periodic thread's runs against a busy loop's
     * on the same CPU in the same seconds; docs/latency-validation.md, "A vCPU that halted loses more"); why the
     * host's exits are longer then is not known (its caches, its own scheduler).
     */
    public record AfterHalt(double irqFactor, long windowNs) {
        /** The same as a busy vCPU's. */
        public static final AfterHalt NONE = new AfterHalt(1, 0);

        public AfterHalt {
            if (!(irqFactor >= 1) || irqFactor > 10 || windowNs < 0 || (irqFactor > 1 && windowNs == 0)) {
                throw new IllegalArgumentException("afterHalt needs 1 <= irqFactor <= 10 and windowNs > 0 where "
                        + "irqFactor > 1");
            }
        }
    }

    /** No machine activity at all: the simulated workloads alone on the machine. */
    public static final MachineNoise NONE = new MachineNoise(0, 0, 0, 0, List.of());

    public MachineNoise {
        if (irqPerSec < 0 || irqMedianNs < 0 || irqSigma < 0 || timerJitterNs < 0) {
            throw new IllegalArgumentException("machine noise values must be >= 0");
        }
        background = List.copyOf(background);
        hostStalls = hostStalls == null ? List.of() : List.copyOf(hostStalls);
        wakeDelay = wakeDelay == null ? WakeDelay.NONE : wakeDelay;
        afterHalt = afterHalt == null ? AfterHalt.NONE : afterHalt;
    }

    /** A virtual machine's activity whose host takes as much from a vCPU that halted as from one that computes. */
    public MachineNoise(double irqPerSec, long irqMedianNs, double irqSigma, long timerJitterNs,
                        List<Background> background, List<HostStall> hostStalls, WakeDelay wakeDelay) {
        this(irqPerSec, irqMedianNs, irqSigma, timerJitterNs, background, hostStalls, wakeDelay, AfterHalt.NONE);
    }

    /** A machine's own activity without a host's (bare metal, or a host nobody measured). */
    public MachineNoise(double irqPerSec, long irqMedianNs, double irqSigma, long timerJitterNs,
                        List<Background> background) {
        this(irqPerSec, irqMedianNs, irqSigma, timerJitterNs, background, List.of(), WakeDelay.NONE, AfterHalt.NONE);
    }

    /**
     * The validation machine (a 2-vCPU KVM guest running a few daemons), measured by scripts/measure-latency.py
     * (src/test/resources/validation/latency-cases.json, "machineNoise" and each run's "background";
     * docs/latency-validation.md): a computing thread loses about 1 360 steps a second of 5-20 µs (median 7 µs,
     * 1.0-1.2 % of its time); a timer wakeup from a short idle reaches its program with a p90-p50 spread of about
     * 7 µs; other threads run about 84 times a second (43-134 over the runs), for 19 µs at the median, 110 µs at
     * p90 and 450 µs at p99, plus about once a second a runtime worker's 11 ms.
     */
    public static MachineNoise validation2c() {
        return new MachineNoise(1_360, 7_000, 0.45, 4_000, List.of(
                new Background("daemons", 4, 84, 19_000, 1.37),
                new Background("runtime-worker", 1, 1.2, 11_000_000, 0.3)));
    }

    /**
     * The assumed activity of a machine nobody measured (a quiet server, whatever its size): the scheduler tick
     * and a few device interrupts, about 300 a second of 3 µs on a busy CPU (0.1 %); timers 2 µs late on average;
     * four daemon threads waking 40 times a second between them for 20 µs at the median (p99 about 500 µs).
     */
    public static MachineNoise defaults() {
        return new MachineNoise(300, 3_000, 0.45, 2_000, List.of(new Background("daemons", 4, 40, 20_000, 1.37)));
    }

    /**
     * A standard normal draw (Box-Muller; one of the pair, for a stream that depends only on the count), for the
     * interrupts' and the background threads' lognormal durations.
     */
    public static double gaussian(SplittableRandom r) {
        double u = 1 - r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
