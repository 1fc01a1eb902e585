package org.dsload.arrivals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OpenModelTimesTest {

    @Test
    void evenArrivalsAreSpacedAtTheRateAfterAPause() {
        OpenModelTimes times = OpenModelTimes.of("pause(2 s) rate(10/s) even_arrivals(3 s)", 0);
        assertTrue(times.reproducible(), "even arrivals need no seed");
        assertEquals(2.0, times.secondsOf(0), 1e-9);
        assertEquals(2.5, times.secondsOf(5), 1e-9);
        assertEquals(4.9, times.secondsOf(29), 1e-9);
        assertTrue(Double.isNaN(times.secondsOf(30)), "30 arrivals in 3 s at 10/s, no more");
    }

    @Test
    void randomArrivalsWithASeedAreDrawnAgainTheSame() {
        OpenModelTimes a = OpenModelTimes.of("rate(100/s) random_arrivals(10 s)", 42);
        OpenModelTimes b = OpenModelTimes.of("rate(100/s) random_arrivals(10 s)", 42);
        assertTrue(a.reproducible());
        for (int n = 0; n < 1000; n += 7) {
            assertEquals(a.secondsOf(n), b.secondsOf(n), "arrival " + n);
        }
        double previous = -1;
        for (int n = 0; n < 1000; n++) {
            double t = a.secondsOf(n);
            assertTrue(t >= previous && t <= 10, "arrival " + n + " at " + t);
            previous = t;
        }
    }

    @Test
    void randomArrivalsWithoutASeedCannotBeComputed() {
        OpenModelTimes times = OpenModelTimes.of("rate(100/s) random_arrivals(10 s)", 0);
        assertFalse(times.reproducible());
        assertTrue(Double.isNaN(times.secondsOf(0)));
    }

    @Test
    void aScheduleJMeterCannotReadIsRefusedWithItsMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpenModelTimes.of("rate(10/s) forever", 1));
        assertTrue(e.getMessage().startsWith("cannot read the schedule 'rate(10/s) forever'"), e.getMessage());
    }
}
