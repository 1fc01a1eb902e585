package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SelectorAlarmTest {
    private static final long A_MINUTE_MS = 60_000;

    /** Selects until woken, with a minute's timeout that a missed alarm would run into; returns when it returned. */
    private static long selectUntilWoken(Selector selector) throws Exception {
        selector.select(A_MINUTE_MS);
        return System.nanoTime();
    }

    @Test
    @Timeout(30) // a missed alarm leaves the select to its minute
    void wakesTheSelectorAtTheInstantNotBefore() throws Exception {
        try (Selector selector = Selector.open()) {
            SelectorAlarm alarm = new SelectorAlarm(selector);
            for (int i = 0; i < 20; i++) {
                long instant = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(300 + 100 * i);
                alarm.set(instant);
                long returned = selectUntilWoken(selector);
                assertTrue(returned - instant >= 0, "woken " + (instant - returned) / 1000 + " µs early");
            }
        }
    }

    @Test
    @Timeout(30)
    void anEarlierAlarmSetWhileTheThreadWaitsForALaterOneIsNotHeldUpByIt() throws Exception {
        try (Selector late = Selector.open(); Selector early = Selector.open()) {
            SelectorAlarm later = new SelectorAlarm(late);
            later.set(System.nanoTime() + TimeUnit.SECONDS.toNanos(50));
            try {
                long instant = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
                new SelectorAlarm(early).set(instant);
                long returned = selectUntilWoken(early);
                assertTrue(returned - instant >= 0);
            } finally {
                later.cancel();
            }
        }
    }

    @Test
    void aCancelledAlarmDoesNotWakeItsSelector() throws Exception {
        try (Selector selector = Selector.open()) {
            SelectorAlarm alarm = new SelectorAlarm(selector);
            long cancelled = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            alarm.set(cancelled);
            alarm.cancel();
            selector.select(1500);
            assertTrue(System.nanoTime() - cancelled > TimeUnit.MILLISECONDS.toNanos(500),
                    "woken at the cancelled instant");
        }
    }
}
