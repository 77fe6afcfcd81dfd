/**
 * Simulation jobs: the job rows (the queue is the database), the workers that claim and run them through the
 * engine, and the aggregation of engine reports into the result document. Spring lives here; the engine does not.
 */
package dev.schedsim.simulation;
