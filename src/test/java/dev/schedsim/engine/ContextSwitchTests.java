package dev.schedsim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.spec.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the context-switch counts mean, as the kernel keeps them: __schedule() counts rq->nr_switches once
 * whenever the CPU switches from one task to another, the idle task included, and the task switched away from
 * counts one in p->nvcsw + p->nivcsw. So the machine's count is the tasks' counts plus the switches away from idle.
 */
class ContextSwitchTests {
    private static final TopologySpec ONE_CPU = Specs.quiet(TopologySpec.uniform(1, 1, 1, 1, 1));

    private static long taskSwitches(Report r) {
        return r.workloads().stream().mapToLong(Report.WorkloadReport::contextSwitches).sum();
    }

    @Test
    void aPingPongPairOnOneCpuCountsEachHandOffOnce() {
        // Client and server hand the CPU to each other and it never idles: every switch is task to task.
        EngineSpec s = Specs.spec(ONE_CPU, Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.requestResponse("pipe", "/", 1, 20, 10)), 200_000);
        Report r = Specs.run(s, 1);
        long tasks = taskSwitches(r);
        assertTrue(tasks > 1_000, "the pair switched " + tasks + " times");
        // One switch from idle to the first client; the task running at the end has not switched away.
        long machine = r.scheduler().contextSwitches();
        assertTrue(machine >= tasks && machine <= tasks + 1, "machine " + machine + ", tasks " + tasks);
    }

    @Test
    void aThreadAloneSwitchesToIdleAndBackEachCycle() {
        EngineSpec s = Specs.spec(ONE_CPU, Specs.kernel("6.18"), List.of(),
                List.of(WorkloadSpec.periodic("tick", "/", 1, 100, 900)), 100_000);
        Report r = Specs.run(s, 1);
        long tasks = taskSwitches(r);
        assertTrue(tasks >= 90, "one switch away per cycle: " + tasks);
        long machine = r.scheduler().contextSwitches();
        assertTrue(Math.abs(machine - 2 * tasks) <= 1, "to idle and back: machine " + machine + ", tasks " + tasks);
    }

    @Test
    void aParkedTaskThatLeavesTheCpuIdleIsOneSwitch() {
        // 6.18: a task over its quota is parked at its return to user; with nothing else to run the CPU goes idle
        // until the next period. Each park and each unthrottle is a switch (task → idle, idle → task).
        EngineSpec s = Specs.spec(ONE_CPU, Specs.kernel("6.18"),
                List.of(new dev.schedsim.engine.spec.CgroupSpec("/g", 20_000, 100_000, 0, 100)),
                List.of(WorkloadSpec.cpuBound("spin", "/g", 1, 0)), 1_000_000);
        Report r = Specs.run(s, 1);
        long throttled = Specs.cgroup(r, "/g").cpuStat().nrThrottled();
        assertTrue(throttled >= 9, "throttled in nearly every period: " + throttled);
        assertEquals(taskSwitches(r), throttled, 1, "the thread leaves the CPU once per throttle");
        long machine = r.scheduler().contextSwitches();
        assertTrue(Math.abs(machine - 2 * taskSwitches(r)) <= 1, "machine " + machine + ", tasks " + taskSwitches(r));
    }
}
