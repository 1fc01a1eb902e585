package org.dsload.gauges;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GaugeTextTest {
    @Test
    void aCountWithinWhatUnansweredRequestsCarriedReadsWithinAndBeyondItDiffers() {
        assertEquals("Cross-check [dsload reported, server counted] 100, 100 (match) points\n",
                GaugeText.crossCheck(100, 40, 100, "points", ""));
        assertEquals("Cross-check [dsload reported, server counted] 100, 130 (within: 30 of the 40 whose requests got no "
                + "answer) points\n", GaugeText.crossCheck(100, 40, 130, "points", ""));
        assertEquals("Cross-check [dsload reported, server counted] 100, 141 (differ by 41) points\n",
                GaugeText.crossCheck(100, 40, 141, "points", ""));
        assertEquals("Cross-check [dsload reported, server counted] 100, 99 (differ by 1) points\n",
                GaugeText.crossCheck(100, 40, 99, "points", ""));
        assertEquals("Cross-check [dsload reported, server counted] 100, 130 (differ by 30) points\n",
                GaugeText.crossCheck(100, 130, "points", ""), "without unanswered requests nothing more is expected");
    }
}
