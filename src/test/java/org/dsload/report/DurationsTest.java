package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void formatsLikeGoDurations() {
        assertEquals("0s", Durations.format(0));
        assertEquals("500µs", Durations.format(0.5));
        assertEquals("12ms", Durations.format(12));
        assertEquals("1.235ms", Durations.format(1.2345));
        assertEquals("1.5s", Durations.format(1500));
        assertEquals("1m0.25s", Durations.format(60_250));
        assertEquals("1h2m3s", Durations.format(3_723_000));
    }
}
