/**
 * Trace formats: a run's recorded scheduling events ({@code Report.Trace}) as run slices and throttled
 * intervals, as Chrome trace-event JSON, as ftrace text (what /sys/kernel/tracing/trace prints), and the ftrace
 * text parsed back.
 */
package dev.schedsim.trace;
