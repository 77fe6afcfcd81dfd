package dev.schedsim.queue;

import java.time.Instant;

/** A client's submissions in a time window: how many, and when the first of them came (null when none). */
public record RecentSubmissions(long count, Instant first) {
}
