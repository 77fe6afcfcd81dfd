/**
 * kernel/sched/pelt.c's per-entity load tracking: one signal's sums, their decay and averages
 * ({@link dev.schedsim.engine.pelt.Pelt}). When fair.c brings the signals up to date (update_load_avg(),
 * update_blocked_averages()) is {@code fair.LoadTracking}.
 */
package dev.schedsim.engine.pelt;
