package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final long MS = 1_000_000;

    @Test
    void thePauseDoublesWithEachFailureInARowUpToOneSecond() {
        Backoff b = new Backoff();
        long now = 5_000 * MS;
        assertFalse(b.waiting(now), "no pause before a first failure");
        long[] pauses = new long[10];
        for (int i = 0; i < pauses.length; i++) {
            b.failed(now);
            pauses[i] = (b.notBeforeNanos() - now) / MS;
        }
        assertEquals("[10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000]", java.util.Arrays.toString(pauses));
        assertTrue(b.waiting(now + 999 * MS));
        assertFalse(b.waiting(now + 1000 * MS));
        assertEquals(10, b.failures());
    }

    @Test
    void aConnectionMadeEndsThePause() {
        Backoff b = new Backoff();
        b.failed(0);
        b.failed(0);
        b.succeeded();
        assertFalse(b.waiting(0));
        b.failed(0);
        assertEquals(10 * MS, b.notBeforeNanos(), "the next failure starts again at 10 ms");
    }

    @Test
    void waitingStopsAtTheLimitGivenSoThatAThreadEndsOnTime() {
        Backoff b = new Backoff();
        for (int i = 0; i < 10; i++) {
            b.failed(System.nanoTime());
        }
        assertFalse(b.await(System.nanoTime() + 20 * MS), "the limit (the thread's end) comes before the pause's end");
        assertTrue(b.waiting(System.nanoTime()));
    }

    @Test
    void aWakeEndsTheWaitAtOnceSoThatAStoppedTestIsNotHeldByThePause() throws Exception {
        assertFalse(TestStop.stopping(), "no test stopped (this also loads JMeter's classes, as a running test has)");
        Backoff b = new Backoff();
        for (int i = 0; i < 10; i++) {
            b.failed(System.nanoTime()); // a pause of 1 s
        }
        java.util.concurrent.CompletableFuture<Boolean> waited = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> b.await(Long.MAX_VALUE));
        long start = System.nanoTime();
        while (!waited.isDone() && System.nanoTime() - start < 5_000 * MS) {
            b.wake();
            Thread.onSpinWait();
        }
        assertFalse(waited.get(), "a woken wait makes no attempt");
        assertTrue(System.nanoTime() - start < 900 * MS, "it did not wait out the pause");
    }
}
