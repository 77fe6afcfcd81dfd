package dev.schedsim.engine.sched;

/** The machine-wide counts the report gives (the sums of rq->nr_switches and of the tasks' wakeups and moves). */
public final class Counters {
    /** Context switches on every CPU. */
    public long contextSwitches;
    /** Task migrations: wakeups placed on another CPU, and moves by load balancing. */
    public long migrations;
    /** Of those, wakeups that select_task_rq() placed on another CPU (schedstat nr_wakeups_migrate). */
    public long wakeupMigrations;
    /** Wakeups of sleeping or blocked tasks. */
    public long wakeups;

    /** The report starts here (after warm-up runs). */
    public void reset() {
        contextSwitches = 0;
        migrations = 0;
        wakeupMigrations = 0;
        wakeups = 0;
    }
}
