/**
 * Traces in and out: rt-app JSON and ftrace recordings as workloads of a request
 * ({@link dev.schedsim.trace.RtApp}, {@link dev.schedsim.trace.FtraceWorkloads}), and a finished run's recorded
 * scheduling events as Chrome trace-event JSON or ftrace text ({@code GET /api/v1/simulations/{id}/trace},
 * {@link dev.schedsim.trace.TraceController}); docs/traces.md.
 */
package dev.schedsim.trace;
