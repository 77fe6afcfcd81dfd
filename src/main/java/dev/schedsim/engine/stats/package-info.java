/** What a run reports: the time series and the trace as they are recorded, the latency histograms, the report. */
package dev.schedsim.engine.stats;
