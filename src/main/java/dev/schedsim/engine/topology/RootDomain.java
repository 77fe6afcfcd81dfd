package dev.schedsim.engine.topology;

/**
 * {@code struct root_domain} (kernel/sched/sched.h), the part the model keeps: {@code rd->overloaded}, a flag
 * that add_nr_running() raises when a CPU reaches two tasks and that only a balance at the root domain
 * writes again (update_sd_lb_stats() with {@code !env->sd->parent}: set_rd_overloaded() with whether any CPU
 * of the span had more than one). sub_nr_running() leaves it alone, so it stays raised after the overload has
 * gone until the next balance at the top level looks.
 */
public final class RootDomain {
    private boolean overloaded;

    /** add_nr_running() / sub_nr_running() moved a CPU's nr_running from {@code before} to {@code after}. */
    public void nrRunningChanged(int before, int after) {
        if (before < 2 && after >= 2) {
            overloaded = true; // add_nr_running(): set_rd_overloaded(rq->rd, 1)
        }
    }

    /** set_rd_overloaded() from update_sd_lb_stats() at the root domain. */
    public void setRdOverloaded(boolean status) {
        overloaded = status;
    }

    /** get_rd_overloaded(). */
    public boolean overloaded() {
        return overloaded;
    }
}
