package dev.schedsim.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The plots' buckets are 1, 2 or 5 ms times a power of ten, the smallest that keeps a series within its length. */
class RecorderBucketTests {
    @Test
    void bucketsAreTidy() {
        assertThat(Recorder.tidy(1)).isEqualTo(1_000_000L);
        assertThat(Recorder.tidy(1_000_000)).isEqualTo(1_000_000L);
        assertThat(Recorder.tidy(8_333_334)).isEqualTo(10_000_000L); // 2 s in 240 buckets: 10 ms, not 9
        assertThat(Recorder.tidy(41_666_667)).isEqualTo(50_000_000L); // 10 s: 50 ms, not 42
        assertThat(Recorder.tidy(2_000_001)).isEqualTo(5_000_000L);
        assertThat(Recorder.tidy(150_000_000)).isEqualTo(200_000_000L);
    }

    @Test
    void aRunFitsItsBucketsAndTheyAreTidy() {
        for (long ms : new long[] {1, 240, 241, 2_000, 10_000, 60_000, 3_600_000}) {
            Recorder r = new Recorder(ms * 1_000_000, 1, false);
            assertThat(r.busyNs.length).as(ms + " ms").isLessThanOrEqualTo(Recorder.MAX_BUCKETS);
        }
        assertThat(new Recorder(2_000_000_000L, 1, false).busyNs).hasSize(200);
    }
}
