package org.dsload.arrivals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.dsload.process.Deadline;
import org.junit.jupiter.api.Test;

class PhaseBarrierTest {
    private static final long LONG = TimeUnit.SECONDS.toNanos(60);

    /** A thread that arrives and waits for the round; its future ends when the wait does. */
    private static CompletableFuture<Boolean> arriveAndWait(PhaseBarrier.Barrier barrier, Thread[] thread) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        thread[0] = new Thread(() -> {
            try {
                long round = barrier.arrive(-1);
                done.complete(barrier.await(round, System.nanoTime() + LONG));
            } catch (InterruptedException e) {
                done.completeExceptionally(e);
            }
        });
        thread[0].start();
        return done;
    }

    /** Waits until the thread is parked at the barrier, so that what follows happens while it waits. */
    private static void parked(Thread thread) throws InterruptedException {
        assertTrue(Deadline.await(() -> thread.getState() == Thread.State.TIMED_WAITING, Duration.ofSeconds(10),
                Duration.ofMillis(5)), "the thread waits at the barrier: " + thread.getState());
    }

    @Test
    void theLastThreadToArriveLetsTheOthersGo() throws Exception {
        PhaseBarrier.Barrier barrier = new PhaseBarrier.Barrier();
        barrier.setUp(2);
        Thread[] first = new Thread[1];
        CompletableFuture<Boolean> waiting = arriveAndWait(barrier, first);
        parked(first[0]);
        assertFalse(waiting.isDone(), "one of two threads came: the first waits");
        long round = barrier.arrive(-1);
        assertTrue(waiting.get(10, TimeUnit.SECONDS), "the second came: both go on");
        assertTrue(barrier.await(round, System.nanoTime() + LONG), "the last to come does not wait");
    }

    @Test
    void aThreadThatEndedCountsAsCome() throws Exception {
        PhaseBarrier.Barrier barrier = new PhaseBarrier.Barrier();
        barrier.setUp(3);
        Thread[] first = new Thread[1];
        CompletableFuture<Boolean> waiting = arriveAndWait(barrier, first);
        parked(first[0]);
        barrier.leave(-1); // a thread stopped before this barrier
        assertFalse(waiting.isDone(), "one thread is still to come");
        barrier.leave(-1); // so did the last one: nobody is left to wait for
        assertTrue(waiting.get(10, TimeUnit.SECONDS));
        // the next round counts the one thread left alone
        long next = barrier.arrive(-1);
        assertTrue(barrier.await(next, System.nanoTime() + LONG));
    }

    @Test
    void aThreadThatTimedOutAndComesAgainInTheSameRoundIsCountedOnce() throws Exception {
        PhaseBarrier.Barrier barrier = new PhaseBarrier.Barrier();
        barrier.setUp(2);
        long round = barrier.arrive(-1);
        assertFalse(barrier.await(round, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1)), "timed out alone");
        long again = barrier.arrive(round);
        assertEquals(round, again, "still the same round: counted once");
        assertFalse(barrier.await(again, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1)),
                "coming again did not complete the round by itself");
        long other = barrier.arrive(-1);
        assertEquals(round, other);
        assertTrue(barrier.await(round, System.nanoTime() + LONG), "the second thread completed the round");
    }

    @Test
    void aThreadThatEndsAfterComingIsNotCountedTwice() throws Exception {
        PhaseBarrier.Barrier barrier = new PhaseBarrier.Barrier();
        barrier.setUp(3);
        long round = barrier.arrive(-1);
        barrier.leave(round); // came, then ended (its wait timed out): it no longer counts either way
        assertFalse(barrier.await(round, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1)),
                "two threads are still to come");
        barrier.arrive(-1);
        assertFalse(barrier.await(round, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1)), "one still to come");
        barrier.arrive(-1);
        assertTrue(barrier.await(round, System.nanoTime() + LONG));
    }
}
