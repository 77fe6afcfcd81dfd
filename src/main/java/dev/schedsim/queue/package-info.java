/**
 * The job queue: job rows (the queue is the database), their runs and stored engine reports, the workers that
 * claim batches of runs and run each through the engine, the completion that folds the reports into the result
 * document, and what keeps it all durable (heartbeats, recovery after a crash, database outages, warm-up).
 * Each job carries its typed plan; a worker never reads the request again. Spring lives here; the engine does not.
 */
package dev.schedsim.queue;
