package dev.schedsim.engine.spec;

/**
 * What a workload's run lengths measure, as its program would time them (the API's {@code runClock}).
 */
public enum RunClock {
    /**
     * Work: a run is an amount of computation at full single-thread speed, as a loop that counts its own steps;
     * whatever else the CPU does meanwhile — interrupts, the scheduler's work, a slower SMT sibling share — comes on
     * top (the default; latbench's vDSO loop).
     */
    WORK,
    /**
     * The thread's own CPU clock: a run lasts until clock_gettime(CLOCK_THREAD_CPUTIME_ID) has advanced by its
     * length, read between short loops as shared/validation's spin.c does. What the kernel charges the thread
     * meanwhile counts toward it — the interrupts it takes when IRQ_TIME_ACCOUNTING is off — and each read is a
     * system call that runs update_curr(), so its group's quota and its slice end to the microsecond rather than at
     * the next tick.
     */
    THREAD_CPU;

    /** The API's name: "work" or "thread-cpu". */
    public String wireName() {
        return this == WORK ? "work" : "thread-cpu";
    }

    /** The clock of an API name, or null when unknown. */
    public static RunClock byWireName(String name) {
        for (RunClock c : values()) {
            if (c.wireName().equals(name)) {
                return c;
            }
        }
        return null;
    }
}
