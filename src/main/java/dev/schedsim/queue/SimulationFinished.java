package dev.schedsim.queue;

import java.time.Duration;

/**
 * Published after a job reached a final state (metrics listen to it).
 *
 * @param id            the job
 * @param label         name, or id when unnamed
 * @param outcome       SUCCEEDED, FAILED or CANCELLED
 * @param wallTime      how long the job ran
 * @param events        engine events processed
 * @param simulatedUs   simulated time over all runs
 * @param resultJson    the result document (null unless SUCCEEDED)
 */
public record SimulationFinished(String id, String label, SimulationStatus outcome, Duration wallTime, long events,
                                 long simulatedUs, String resultJson) {
}
