package dev.schedsim.engine.machine;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.spec.HardwareModel;

/**
 * (model) CPU idle states: a CPU idle for longer than {@code deepIdleResidencyNs} sits in the deep state and
 * needs {@code deepIdleExitNs} to wake, otherwise {@code shallowIdleExitNs} (what cpuidle's governor and the
 * hardware make of an idle period, reduced to two states).
 */
public final class IdleStates {
    private final SimClock clock;
    private final HardwareModel hw;

    public IdleStates(SimClock clock, HardwareModel hw) {
        this.clock = clock;
        this.hw = hw;
    }

    /** How long a CPU idle since {@code cpu.idleSince} takes to leave its idle state now. */
    public long exitLatency(Cpu cpu) {
        long idleFor = clock.now - cpu.idleSince;
        return idleFor >= hw.deepIdleResidencyNs() ? hw.deepIdleExitNs() : hw.shallowIdleExitNs();
    }
}
