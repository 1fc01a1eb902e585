package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PreciseWaitTest {

    @AfterEach
    void forget() {
        PreciseWait.reset();
    }

    @Test
    void neverReturnsBeforeTheInstant() {
        for (int i = 0; i < 200; i++) {
            long instant = System.nanoTime() + (i % 7) * 37_000L;
            assertTrue(PreciseWait.until(instant));
            assertTrue(System.nanoTime() - instant >= 0, "returned before the instant");
        }
    }

    @Test
    void anInterruptedThreadReturnsFalseAndKeepsItsInterrupt() {
        Thread.currentThread().interrupt();
        try {
            assertFalse(PreciseWait.until(System.nanoTime() + 1_000_000_000L));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theMarginSettlesNearHowLateParksWakeAndComesDownSlowlyAfterALateOne() {
        for (int i = 0; i < 2000; i++) {
            PreciseWait.observeLate(40_000);
        }
        long settled = PreciseWait.marginNanos();
        assertEquals(40_000 + 10_000 + 5_000, settled, 1_000, "a quarter above the wakes' lateness, and 5 µs");

        PreciseWait.observeLate(200_000);
        assertEquals(200_000 + 50_000 + 5_000, PreciseWait.marginNanos(), 1_000, "one late wake raises it at once");
        PreciseWait.observeLate(40_000);
        assertTrue(PreciseWait.marginNanos() > 200_000, "and it comes down slowly: " + PreciseWait.marginNanos());
        for (int i = 0; i < 1000; i++) {
            PreciseWait.observeLate(40_000);
        }
        assertEquals(settled, PreciseWait.marginNanos(), 1_000);
    }

    @Test
    void theMarginStaysWithinItsBounds() {
        for (int i = 0; i < 2000; i++) {
            PreciseWait.observeLate(0);
        }
        assertEquals(PreciseWait.MIN_MARGIN_NANOS, PreciseWait.marginNanos(), "never below the least margin");
        PreciseWait.observeLate(50_000_000);
        assertEquals(PreciseWait.MAX_MARGIN_NANOS, PreciseWait.marginNanos(), "a preempted thread does not set it");
        PreciseWait.observeLate(-5_000);
        assertEquals(PreciseWait.MAX_MARGIN_NANOS, PreciseWait.marginNanos(), "an early wake says nothing");
    }
}
