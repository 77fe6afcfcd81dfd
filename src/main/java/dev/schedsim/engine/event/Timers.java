package dev.schedsim.engine.event;

/**
 * (model) The timers of a run and their slots in the {@link EventQueue}: one tick and one run-segment end and
 * one idle-state exit per CPU, one timer per task (its sleep, or a delayed start), a period and a slack timer per
 * task group, one interrupt per CPU (machine noise), one clock read per CPU (a thread-clock run's next update_curr()
 * that matters), one host preemption per CPU (a virtual machine's steal), the stop of every thread and the end of
 * the run. At equal times the priority orders them: the end
 * first, then timers in the order the kernel's hrtimer softirq/interrupt would most plausibly run them, the tick
 * last.
 */
public final class Timers {
    /** The end of the run. */
    public static final int PRIO_END = 0;
    /** A bandwidth period timer (sched_cfs_period_timer). */
    public static final int PRIO_PERIOD = 1;
    /** A bandwidth slack timer (sched_cfs_slack_timer). */
    public static final int PRIO_SLACK = 2;
    /** A task's sleep ends, a task starts, every task stops. */
    public static final int PRIO_TASK = 3;
    /** The running task's run segment ends. */
    public static final int PRIO_RUN_END = 4;
    /** A CPU is out of its idle state. */
    public static final int PRIO_IDLE_EXIT = 5;
    /** An interrupt of the machine's own (MachineNoise). */
    public static final int PRIO_IRQ = 6;
    /** The scheduler tick. */
    public static final int PRIO_TICK = 7;

    private final int ncpu;
    /** The first slot of each range: ticks from 0, run-segment ends, idle exits, tasks, group timers. */
    public final int runEndBase;
    public final int idleExitBase;
    public final int taskBase;
    public final int groupBase;
    /** The first per-CPU interrupt slot (after the group timers). */
    public final int irqBase;
    /** The first per-CPU slot of a thread-clock run's next update_curr() (after the interrupts). */
    public final int clockReadBase;
    /** The first per-CPU slot of the host's next preemption of the vCPU, or of its end (after the clock reads). */
    public final int hostStallBase;
    private final int stopSlot;
    private final int boundarySlot;
    private final int endSlot;
    /** The queue of these timers (hot paths arm and cancel on it directly). */
    public final EventQueue queue;

    public Timers(int cpus, int tasks, int groups) {
        this.ncpu = cpus;
        this.runEndBase = cpus;
        this.idleExitBase = 2 * cpus;
        this.taskBase = 3 * cpus;
        this.groupBase = taskBase + tasks;
        this.irqBase = groupBase + 2 * groups;
        this.clockReadBase = irqBase + cpus;
        this.hostStallBase = clockReadBase + cpus;
        this.stopSlot = hostStallBase + cpus;
        this.boundarySlot = stopSlot + 1;
        this.endSlot = boundarySlot + 1;
        this.queue = new EventQueue(endSlot + 1);
    }

    public EventQueue queue() {
        return queue;
    }

    public int tick(int cpu) {
        return cpu;
    }

    public int runEnd(int cpu) {
        return ncpu + cpu;
    }

    public int idleExit(int cpu) {
        return 2 * ncpu + cpu;
    }

    public int task(int id) {
        return taskBase + id;
    }

    /** A task group's period timer; its slack timer is the slot after. */
    public int period(int group) {
        return groupBase + 2 * group;
    }

    public int slack(int group) {
        return groupBase + 2 * group + 1;
    }

    /** The machine's next interrupt on a busy CPU. */
    public int irq(int cpu) {
        return irqBase + cpu;
    }

    /**
     * The running thread-clock run's next clock read that matters: the update_curr() at which its quota runs out
     * or its slice ends (UpdateCurr.armClockRead()).
     */
    public int clockRead(int cpu) {
        return clockReadBase + cpu;
    }

    /** The host's next preemption of the busy vCPU, or the end of the one in progress (MachineNoise.HostStall). */
    public int hostStall(int cpu) {
        return hostStallBase + cpu;
    }

    /** Every thread exits (EngineSpec.stopUs): the slot just before the end's. */
    public int stop() {
        return stopSlot;
    }

    /** The next boundary between warm-up runs (EngineSpec.Warmup): a run's end, the next one's start. */
    public int boundary() {
        return boundarySlot;
    }

    public int end() {
        return endSlot;
    }

    public void arm(int slot, long time, int priority) {
        queue.arm(slot, time, priority);
    }

    public void cancel(int slot) {
        queue.cancel(slot);
    }

    public boolean armed(int slot) {
        return queue.armed(slot);
    }
}
