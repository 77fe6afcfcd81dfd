/**
 * (model) What the simulated threads run: one {@link dev.schedsim.engine.workload.Program} per workload type, each
 * a small state machine per thread that sees its thread only as a {@link dev.schedsim.engine.workload.SimThread} —
 * run, spin, sleep, block, wake another thread — and {@link dev.schedsim.engine.workload.WorkloadRun}, a workload's
 * threads and what the report counts of them.
 */
package dev.schedsim.engine.workload;
