package dev.schedsim.queue;

import java.time.Duration;

/**
 * Published after a job reached a final state (metrics listen to it).
 *
 * @param id            the job
 * @param label         name, or id when unnamed
 * @param outcome       SUCCEEDED, FAILED or CANCELLED
 * @param wallTime      how long the job ran; never negative: a job that a worker started after the instant its cancel
 *                      took ran for none of it (that cancel's duration, startedAt to the cancel's instant, would be
 *                      negative, and a Micrometer timer refuses a negative amount with a logged stack trace)
 * @param events        engine events processed
 * @param simulatedUs   simulated time over all runs
 * @param resultJson    the result document (null unless SUCCEEDED)
 */
public record SimulationFinished(String id, String label, SimulationStatus outcome, Duration wallTime, long events,
                                 long simulatedUs, String resultJson) {
    public SimulationFinished {
        if (wallTime.isNegative()) {
            wallTime = Duration.ZERO;
        }
    }
}
