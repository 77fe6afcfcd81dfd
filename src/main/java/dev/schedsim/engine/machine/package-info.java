/**
 * (model) The hardware under the scheduler, from the spec's {@code HardwareModel}: how the running task's work
 * progresses and what scheduler overhead and stalls take from it ({@link dev.schedsim.engine.machine.Execution}),
 * SMT throughput, idle states and their exit latency, cache refill after a move, and power.
 */
package dev.schedsim.engine.machine;
