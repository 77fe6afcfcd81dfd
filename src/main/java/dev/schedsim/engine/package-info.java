/**
 * The simulation engine: a deterministic discrete-event model of the Linux fair scheduler (EEVDF and CFS),
 * cgroup CPU bandwidth control and the machine it runs on. Pure Java: nothing here may depend on Spring,
 * Jakarta or JDBC (checked by {@code EngineIsolationTests}).
 */
package dev.schedsim.engine;
