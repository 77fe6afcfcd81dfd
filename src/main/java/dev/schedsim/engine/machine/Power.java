package dev.schedsim.engine.machine;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.spec.HardwareModel;

/**
 * (model) Energy per core: busy watts plus {@code smtThreadWatts} for each busy thread beyond the first, idle
 * watts for the shallow part of an idle period and deep-idle watts beyond {@code deepIdleResidencyNs}.
 */
public final class Power {
    private final SimClock clock;
    private final HardwareModel hw;
    private final double[] coreEnergyJ;
    private final long[] coreSince;
    private final long[] coreIdleFrom;

    public Power(SimClock clock, HardwareModel hw, int cores) {
        this.clock = clock;
        this.hw = hw;
        this.coreEnergyJ = new double[cores];
        this.coreSince = new long[cores];
        this.coreIdleFrom = new long[cores];
    }

    /** A core's busy-thread count goes from {@code before} to {@code after}. */
    void coreBusyChanged(int core, int before, int after) {
        accountCorePower(core, before);
        if (before == 0 && after > 0) {
            accountIdleEnergy(core);
        }
        if (after == 0) {
            coreIdleFrom[core] = clock.now;
        }
    }

    private void accountCorePower(int core, int busy) {
        long now = clock.now;
        long dt = now - coreSince[core];
        coreSince[core] = now;
        if (busy > 0 && dt > 0) {
            coreEnergyJ[core] += busyJoules(busy, dt);
        }
    }

    private void accountIdleEnergy(int core) {
        coreEnergyJ[core] += idleJoules(clock.now - coreIdleFrom[core]);
    }

    /** A core with {@code busy} busy threads for {@code dt} ns. */
    private double busyJoules(int busy, long dt) {
        return (hw.coreBusyWatts() + hw.smtThreadWatts() * (busy - 1)) * dt * 1e-9;
    }

    /** An idle period of {@code idle} ns: shallow up to the deep state's residency, deep beyond. */
    private double idleJoules(long idle) {
        long shallow = Math.min(idle, hw.deepIdleResidencyNs());
        return hw.coreIdleWatts() * shallow * 1e-9 + hw.deepIdleWatts() * (idle - shallow) * 1e-9;
    }

    /**
     * The energy of the run so far, every core accounted up to now; {@code busy} is each core's busy threads. It
     * changes nothing: the run may go on (the energy at the end of warm-up runs is subtracted from the report's).
     */
    public double energyNow(int[] busy) {
        long now = clock.now;
        double energy = 0;
        for (int core = 0; core < busy.length; core++) {
            double e = coreEnergyJ[core];
            if (busy[core] > 0) {
                long dt = now - coreSince[core];
                if (dt > 0) {
                    e += busyJoules(busy[core], dt);
                }
            } else {
                e += idleJoules(now - coreIdleFrom[core]);
            }
            energy += e;
        }
        return energy;
    }
}
