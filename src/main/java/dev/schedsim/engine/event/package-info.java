/**
 * The event loop's time and timers: the simulated clock, the timer slots of a run and their priorities, and the
 * deterministic timer queue they sit in (the model's hrtimer base).
 */
package dev.schedsim.engine.event;
