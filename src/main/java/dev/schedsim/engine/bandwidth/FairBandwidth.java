package dev.schedsim.engine.bandwidth;

import dev.schedsim.engine.fair.Bandwidth;
import dev.schedsim.engine.sched.CfsRq;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;

/** The fair class's view of bandwidth control ({@link Bandwidth}): the static key's hooks, the throttle, the pool. */
public final class FairBandwidth implements Bandwidth {
    private final BandwidthHooks hooks;
    private final Throttle throttle;
    private final BandwidthPool pool;

    public FairBandwidth(BandwidthHooks hooks, Throttle throttle, BandwidthPool pool) {
        this.hooks = hooks;
        this.throttle = throttle;
        this.pool = pool;
    }

    @Override
    public boolean used() {
        return hooks.used();
    }

    @Override
    public long costNs(int levels) {
        return hooks.costNs(levels);
    }

    @Override
    public void charge(Cpu cpu, int levels) {
        hooks.charge(cpu, levels);
    }

    @Override
    public void accountCfsRqRuntime(CfsRq q, long delta) {
        throttle.accountCfsRqRuntime(q, delta);
    }

    @Override
    public boolean checkCfsRqRuntime(CfsRq q) {
        return throttle.checkCfsRqRuntime(q);
    }

    @Override
    public void checkEnqueueThrottle(CfsRq q) {
        throttle.checkEnqueueThrottle(q);
    }

    @Override
    public void throttleCfsRqWork(Task p) {
        throttle.throttleCfsRqWork(p);
    }

    @Override
    public void returnCfsRqRuntime(CfsRq q) {
        pool.returnCfsRqRuntime(q);
    }
}
