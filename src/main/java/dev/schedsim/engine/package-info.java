/**
 * The simulation engine: a deterministic discrete-event model of the Linux fair scheduler (EEVDF and CFS),
 * cgroup CPU bandwidth control and the machine it runs on. Pure Java: nothing here may depend on Spring,
 * Jakarta or JDBC (checked by {@code EngineIsolationTests}).
 *
 * <p>This package is the engine's public entry: {@link dev.schedsim.engine.Engine} runs an
 * {@link dev.schedsim.engine.api.EngineSpec} (built from the records of {@code engine.spec}) and returns a
 * {@link dev.schedsim.engine.api.Report}; {@link dev.schedsim.engine.api.RunControl} watches and stops a run. Nothing
 * outside the engine may use its other packages but {@code api} and {@code spec}; the others hold the model by
 * mechanism, the way kernel/sched/ splits its files (docs/model.md has the map):
 * <ul>
 * <li>{@code spec} — the input records (machine, kernel profile and features, cgroups, workloads);</li>
 * <li>{@code api} — what a run takes and gives back (EngineSpec, Report, RunControl, the budget and cancel
 * exceptions), below every mechanism so that core and stats fill them without importing the entry;</li>
 * <li>{@code core} — core.c: the event loop, __schedule(), try_to_wake_up(), the tick, migration;</li>
 * <li>{@code fair} — fair.c's fair class: update_curr, enqueue/dequeue, place, reweight, pick, preemption;</li>
 * <li>{@code bandwidth} — fair.c's CFS bandwidth control: the pool, its timers, throttling;</li>
 * <li>{@code select} — fair.c's task placement: select_task_rq_fair(), select_idle_sibling(), fork balance;</li>
 * <li>{@code balance} — fair.c's load balancing: periodic, nohz and newidle;</li>
 * <li>{@code pelt} — pelt.c and when fair.c updates the load averages;</li>
 * <li>{@code topology} — topology.c: the machine's CPUs and scheduling domains, the state a domain shares;</li>
 * <li>{@code machine} — (model) the hardware: SMT throughput, idle states, cache refill, power, overhead;</li>
 * <li>{@code workload} — (model) the programs the simulated threads run;</li>
 * <li>{@code event} — the timer queue and the simulated clock;</li>
 * <li>{@code stats} — the series, the trace and the report assembly.</li>
 * </ul>
 */
package dev.schedsim.engine;
