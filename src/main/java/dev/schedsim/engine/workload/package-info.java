/**
 * (model) What the simulated threads run: one {@link dev.schedsim.engine.workload.Program} per workload type, each
 * a small state machine per thread that sees its thread only as a {@link dev.schedsim.engine.workload.SimThread} —
 * run, spin, sleep, block, wake another thread — and {@link dev.schedsim.engine.workload.WorkloadRun}, a workload's
 * threads and what the report counts of them, with its latency histograms
 * ({@link dev.schedsim.engine.workload.LatencyHistogram}). It sits below the scheduler's state: a
 * {@code sched.Task} is a {@code SimThread} to its program, and asks the core for a wake through
 * {@link dev.schedsim.engine.workload.ThreadOps}.
 */
package dev.schedsim.engine.workload;
