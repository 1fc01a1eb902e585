package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class LiveLineTest {

    @Test
    void aLineSaysTimeRequestsRatePercentilesErrorsLateEnginesAndCpu() {
        Map<String, Double> cpu = new TreeMap<>(Map.of("master", 2.4, "slave-127.0.0.2_1099", 48.6));
        LiveLine.Figures f = new LiveLine.Figures(24_500, 3, 7, 65, 1782, 1_234_567, 12, 40, 0, 2, 2, cpu, 25_000);
        assertEquals("dsload live: 0:35/1:00 | 1234567 requests, 24500/s of 25000/s p50 65µs p99 1.782ms | errors 12 (+3)"
                + " | late 40 | engines 2/2 | cpu master 2% slave-127.0.0.2_1099 49%",
                LiveLine.format(35, 60, 1.0, f));
    }

    @Test
    void anIntervalWithoutRequestsHasNoPercentilesAndAnUnknownLengthOrTargetNone() {
        LiveLine.Figures f = new LiveLine.Figures(0, 0, 0, -1, -1, 500, 0, 0, 3, 1, 2, Map.of(), 0);
        assertEquals("dsload live: 1:01:05 | 500 requests, 0/s p50 - p99 - | errors 0 | late 0, dropped 3 | engines 1/2",
                LiveLine.format(3665, -1, 10.0, f));
    }

    @Test
    void theRateIsPerSecondOfTheInterval() {
        LiveLine.Figures f = new LiveLine.Figures(50_000, 0, 0, 100, 200, 50_000, 0, 0, 0, 1, 1, Map.of(), 0);
        assertEquals("dsload live: 0:10 | 50000 requests, 5000/s p50 100µs p99 200µs | errors 0 | late 0 | engines 1/1",
                LiveLine.format(10, -1, 10.0, f));
    }

    @Test
    void theLengthOfAPlanIsItsWarmUpAndItsMeasuredWindow() {
        assertEquals(60, LiveListener.plannedSeconds("20", "40"), "-Jduration=20 -Jwarmup=40");
        assertEquals(20, LiveListener.plannedSeconds("20", null), "no warm-up given");
        assertEquals(-1, LiveListener.plannedSeconds(null, "10"), "no duration: not known");
        assertEquals(-1, LiveListener.plannedSeconds("1m", null));
    }
}
