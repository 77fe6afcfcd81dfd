/** What a run records as it goes: the time series and the trace ({@link dev.schedsim.engine.stats.Recorder}). */
package dev.schedsim.engine.stats;
