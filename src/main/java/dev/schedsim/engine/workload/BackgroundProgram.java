package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.MachineNoise;
import java.util.SplittableRandom;

/**
 * (model) A class of the machine's background threads ({@link MachineNoise.Background}): each sleeps an
 * exponential time (so that the class wakes {@code wakeupsPerSec} times a second between its threads), then runs a
 * lognormal time, and so on; the first sleep starts at time 0, so their phases are random. Its generator is its
 * own (split from the noise's), so what it draws does not depend on the simulated workloads.
 */
final class BackgroundProgram extends Program {
    private final double meanSleepNs;
    private final double logMedianRun;
    private final double sigma;
    private final SplittableRandom random;
    /** Per thread: it has started its run. */
    private final boolean[] running;

    BackgroundProgram(WorkloadRun run, MachineNoise.Background b, SplittableRandom random) {
        super(run);
        this.meanSleepNs = 1e9 * b.threads() / b.wakeupsPerSec();
        this.logMedianRun = Math.log(b.runMedianNs());
        this.sigma = b.runSigma();
        this.random = random;
        this.running = new boolean[b.threads()];
    }

    @Override
    public boolean finite() {
        return false;
    }

    @Override
    protected Action step(int self, SimThread t) {
        if (!running[self]) {
            running[self] = true;
            if (t.now() > 0) {
                return t.run(Math.max(1, Math.round(Math.exp(logMedianRun + sigma
                        * MachineNoise.gaussian(random)))));
            }
        }
        running[self] = false;
        return t.sleep(1 + (long) (-meanSleepNs * Math.log(1 - random.nextDouble())));
    }
}
