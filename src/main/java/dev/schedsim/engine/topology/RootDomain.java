package dev.schedsim.engine.topology;

/**
 * {@code struct root_domain} (kernel/sched/sched.h), the part the model keeps: {@code rd->overloaded}, here
 * as the number of CPUs with more than one runnable task (the kernel keeps a flag; the count gives the same
 * answer to "is any CPU overloaded?"). Written only by the run-queue bookkeeping of add/sub_nr_running().
 */
public final class RootDomain {
    private int overloadedCpus;

    /** add_nr_running() / sub_nr_running() moved a CPU's nr_running from {@code before} to {@code after}. */
    public void nrRunningChanged(int before, int after) {
        if (before <= 1 && after > 1) {
            overloadedCpus++;
        } else if (before > 1 && after <= 1) {
            overloadedCpus--;
        }
    }

    /** READ_ONCE(rd->overloaded). */
    public boolean overloaded() {
        return overloadedCpus != 0;
    }
}
