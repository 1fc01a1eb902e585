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
    void theMarginSettlesNearHowLateMostParksWakeAndOnePreemptedThreadHardlyMovesIt() {
        for (int i = 0; i < 2000; i++) {
            PreciseWait.observeLate(40_000);
        }
        long settled = PreciseWait.marginNanos();
        assertTrue(settled >= 40_000 && settled <= 40_000 + 9_900 + 10_000, "near the 40 µs wakes: " + settled);

        PreciseWait.observeLate(5_000_000);
        assertTrue(PreciseWait.marginNanos() - settled <= 9_900, "one late wake is one step: " + PreciseWait.marginNanos());
    }

    @Test
    void wakesLateMoreThanOnceInAHundredRaiseItToTheMostAndNoFurther() {
        for (int i = 0; i < 4000; i++) {
            PreciseWait.observeLate(i % 20 == 0 ? 400_000 : 40_000);
        }
        assertEquals(PreciseWait.MAX_MARGIN_NANOS, PreciseWait.marginNanos(), "one wake in twenty is late");
        for (int i = 0; i < 4000; i++) {
            PreciseWait.observeLate(i % 200 == 0 ? 400_000 : 40_000);
        }
        assertTrue(PreciseWait.marginNanos() < 70_000, "one in two hundred late is above the 99th percentile: "
                + PreciseWait.marginNanos());
    }

    @Test
    void theMarginStaysWithinItsBounds() {
        for (int i = 0; i < 2000; i++) {
            PreciseWait.observeLate(0);
        }
        assertEquals(PreciseWait.MIN_MARGIN_NANOS, PreciseWait.marginNanos(), "never below the least margin");
        for (int i = 0; i < 2000; i++) {
            PreciseWait.observeLate(50_000_000);
        }
        assertEquals(PreciseWait.MAX_MARGIN_NANOS, PreciseWait.marginNanos(), "never above the most");
        PreciseWait.observeLate(-5_000);
        assertEquals(PreciseWait.MAX_MARGIN_NANOS, PreciseWait.marginNanos(), "an early wake says nothing");
    }

    @Test
    void aThreadSpinsAtMostATenthOfTheTimeBetweenItsInstants() {
        for (int i = 0; i < 2000; i++) {
            PreciseWait.observeLate(50_000_000); // a busy machine: the learnt margin is the most
        }
        long t = 1_000_000_000L;
        long margin = 0;
        for (int i = 0; i < 100; i++) {
            t += 400_000; // 2,500 instants a second on this thread
            margin = PreciseWait.marginNanos(t);
        }
        assertEquals(40_000, margin, 1_000, "a tenth of 400 µs");
        assertEquals(margin, PreciseWait.marginNanos(t), "the same instant asked again: the same margin");
        for (int i = 0; i < 100; i++) {
            t += 10_000_000; // 100 a second
            margin = PreciseWait.marginNanos(t);
        }
        assertEquals(PreciseWait.MAX_MARGIN_NANOS, margin, "instants far apart keep the learnt margin");
        for (int i = 0; i < 100; i++) {
            t += 50_000; // 20,000 a second
            margin = PreciseWait.marginNanos(t);
        }
        assertEquals(PreciseWait.MIN_MARGIN_NANOS, margin, "never below the least margin");
    }
}
