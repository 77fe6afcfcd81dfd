/**
 * Micrometer meters of the service (counters, queue gauges, the duration histogram) and the result gauges of
 * the most recent simulations (docs/api.md, "Metrics"). Names use dots; the Prometheus registry adds {@code _total} and
 * {@code _seconds}.
 */
package dev.schedsim.metrics;
