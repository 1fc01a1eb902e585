package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExactHistogramTest {

    private static ExactHistogram of(long... values) {
        ExactHistogram h = new ExactHistogram();
        for (long v : values) {
            h.record(v);
        }
        return h;
    }

    @Test
    void nearestRankPercentilesOfTenValues() {
        ExactHistogram h = of(15, 20, 35, 40, 50, 1, 2, 3, 4, 100);
        // sorted: 1 2 3 4 15 20 35 40 50 100
        assertEquals(15, h.percentile(50));   // rank ceil(5)   = 5
        assertEquals(50, h.percentile(90));   // rank ceil(9)   = 9, not 10
        assertEquals(100, h.percentile(95));  // rank ceil(9.5) = 10
        assertEquals(100, h.percentile(99));
        assertEquals(1, h.percentile(0));
        assertEquals(1, h.min());
        assertEquals(100, h.max());
        assertEquals(27.0, h.mean());
    }

    @Test
    void valuesBeyondAMinuteAreExactToo() {
        ExactHistogram h = of(5, 61_234, 3_600_001, 7);
        assertEquals(7, h.percentile(50));
        assertEquals(61_234, h.percentile(75));
        assertEquals(3_600_001, h.percentile(99));
        assertEquals(3_600_001, h.max());
    }

    @Test
    void mergingEqualsRecordingEverythingInOne() {
        ExactHistogram a = of(1, 2, 3, 70_000);
        ExactHistogram b = of(2, 2, 900);
        a.merge(b);
        ExactHistogram all = of(1, 2, 3, 70_000, 2, 2, 900);
        for (double p : new double[] {10, 50, 66.6, 90, 99.9}) {
            assertEquals(all.percentile(p), a.percentile(p), "p" + p);
        }
        assertEquals(7, a.count());
        assertEquals(all.mean(), a.mean());
    }

    @Test
    void emptyHistogramReportsZeros() {
        ExactHistogram h = new ExactHistogram();
        assertEquals(0, h.percentile(99));
        assertEquals(0, h.min());
        assertEquals(0, h.max());
        assertEquals(0.0, h.mean());
    }
}
