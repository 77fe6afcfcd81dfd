/**
 * kernel/sched/pelt.c's per-entity load tracking ({@link dev.schedsim.engine.pelt.Pelt}) and when fair.c brings the
 * signals up to date ({@link dev.schedsim.engine.pelt.LoadTracking}: update_load_avg(),
 * update_blocked_averages()).
 */
package dev.schedsim.engine.pelt;
