package dev.schedsim.trace;

import java.util.HashMap;
import java.util.Map;

/**
 * What each CPU was seen running, from every event line: ftrace prints an event with the task that was current
 * on its CPU ({@code <comm>-<pid> [cpu]}; a sched_switch line is its prev, a wakeup in an interrupt of an idle CPU
 * is {@code <idle>-0}), and after a sched_switch its next is. So when a thread is seen on a CPU without having been
 * seen switching in, its time there began after the last event that showed another task current on that CPU: the
 * lower bound {@link #since} gives, whichever switch tracefs did not record.
 */
final class CpuOccupants {
    /** What one CPU was last seen running. */
    private static final class Cpu {
        int curr = -1; // (-1: nothing seen yet)
        long last = Long.MIN_VALUE;
        /** The last time another task than curr was seen current here (curr's time here began after it). */
        long since = Long.MIN_VALUE;
        /** Whether that other task was the idle task. */
        boolean afterIdle;
    }

    private final Map<Integer, Cpu> cpus = new HashMap<>();

    /** An event on {@code cpu} at {@code ns} whose line's task is {@code pid} (the task current then). */
    void seen(int cpu, int pid, long ns) {
        Cpu c = cpus.computeIfAbsent(cpu, k -> new Cpu());
        if (c.curr != pid) {
            c.since = c.curr < 0 ? Long.MIN_VALUE : c.last;
            c.afterIdle = c.curr == 0;
            c.curr = pid;
        }
        c.last = ns;
    }

    /** A sched_switch on {@code cpu} at {@code ns}: {@code next} runs from now. */
    void switched(int cpu, int prev, int next, long ns) {
        Cpu c = cpus.computeIfAbsent(cpu, k -> new Cpu());
        c.curr = next;
        c.since = ns;
        c.afterIdle = prev == 0;
        c.last = ns;
    }

    /**
     * The latest time at which {@code cpu} was seen running another task than its current one ({@link Long#MIN_VALUE}
     * if none was seen): its current one has run there since then at most.
     */
    long since(int cpu) {
        Cpu c = cpus.get(cpu);
        return c == null ? Long.MIN_VALUE : c.since;
    }

    /** Whether the other task {@link #since} saw was the idle task (the CPU left idle for the current one). */
    boolean afterIdle(int cpu) {
        Cpu c = cpus.get(cpu);
        return c != null && c.afterIdle;
    }
}
