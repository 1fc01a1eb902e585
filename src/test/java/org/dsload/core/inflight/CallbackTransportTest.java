package org.dsload.core.inflight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.dsload.core.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a callback transport hands the window (on the thread that built it) the replies its driver's
 * threads call back with.
 */
class CallbackTransportTest {
    private static final Outcome OK = Outcome.ok("OK", "OK", 1, 1);
    private static final long AN_HOUR = TimeUnit.HOURS.toNanos(1);

    /** Keeps each request's callback, for the test to complete from a thread of its own. */
    private static final class Held extends CallbackTransport<Held.Request> {
        static final class Request extends InFlightRequest {
        }

        final List<Request> requests = new ArrayList<>();
        final List<Callback<Request>> callbacks = new ArrayList<>();

        @Override
        public Request newRequest() {
            return new Request();
        }

        @Override
        protected void start(Request request, Callback<Request> callback) {
            requests.add(request);
            callbacks.add(callback);
        }

        @Override
        public Outcome timedOut(Request request) {
            return Outcome.failed("TIMEOUT", "timed out", 0, 0);
        }

        @Override
        public long timeoutNanos() {
            return AN_HOUR;
        }

        @Override
        public void close() {
        }
    }

    private record Reported(InFlightRequest request, long endNanos) {
    }

    private static Held sent(int requests) {
        Held transport = new Held();
        for (int i = 0; i < requests; i++) {
            transport.send(transport.newRequest(), (r, o, e, d) -> {
            });
        }
        return transport;
    }

    private static void completeOnAnotherThread(Runnable completions) throws InterruptedException {
        Thread driver = new Thread(completions, "driver");
        driver.start();
        driver.join();
    }

    /** The replies one wait reports, the one reply {@code index} coming 50 ms into it (the window parked by then, none in). */
    private static List<Reported> oneReplyDuringAWait(Held transport, int index) throws Exception {
        Thread driver = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
            transport.callbacks.get(index).complete(OK, null);
        }, "driver");
        driver.start();
        List<Reported> reported = new ArrayList<>();
        transport.await(System.nanoTime() + AN_HOUR, false, (r, o, e, d) -> reported.add(new Reported(r, e)));
        driver.join();
        return reported;
    }

    @Test
    @Timeout(30) // a wait that missed its wake-up would end only at its deadline, an hour away
    void aReplyArrivingWhileTheWindowWaitsEndsTheWaitThoughNoBatchIsFull() throws Exception {
        Held transport = sent(32); // a batch would be 4 replies
        assertEquals(1, oneReplyDuringAWait(transport, 5).size());
    }

    @Test
    @Timeout(30)
    void aWaitForAnIntendedStartLastsToTheInstantThoughARepliesMeanwhileAndReportsItThen() throws Exception {
        Held transport = sent(64);
        long instant = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        Thread waiter = Thread.currentThread();
        Thread driver = new Thread(() -> {
            // the reply comes once the wait has begun (parked), not before it: one already in is reported at once
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(250);
            while (waiter.getState() != Thread.State.TIMED_WAITING && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            transport.callbacks.get(0).complete(OK, null);
        }, "driver");
        driver.start();
        List<Reported> reported = new ArrayList<>();
        transport.await(instant, true, (r, o, e, d) -> reported.add(new Reported(r, e)));
        long returned = System.nanoTime();
        driver.join();
        assertTrue(returned - instant >= 0, "the wait ended " + (instant - returned) / 1000 + " µs before its instant");
        assertEquals(1, reported.size());
        assertTrue(instant - reported.get(0).endNanos() > 0, "the reply keeps the time its callback came");
    }

    @Test
    void repliesReportedTogetherKeepEachTheTimeItsCallbackCame() throws Exception {
        Held transport = sent(16);
        long[] around = new long[4];
        completeOnAnotherThread(() -> {
            around[0] = System.nanoTime();
            transport.callbacks.get(0).complete(OK, null);
            around[1] = System.nanoTime();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
            around[2] = System.nanoTime();
            transport.callbacks.get(1).complete(OK, null);
            around[3] = System.nanoTime();
        });
        List<Reported> reported = new ArrayList<>();
        transport.await(System.nanoTime() + AN_HOUR, false, (r, o, e, d) -> reported.add(new Reported(r, e)));
        assertEquals(2, reported.size());
        assertTrue(reported.get(0).endNanos() - around[0] >= 0 && around[1] - reported.get(0).endNanos() >= 0);
        assertTrue(reported.get(1).endNanos() - around[2] >= 0 && around[3] - reported.get(1).endNanos() >= 0);
    }

    @Test
    void aReplyForAPlaceAlreadyReusedIsNotReported() throws Exception {
        Held transport = sent(8);
        transport.requests.get(0).reuse(); // given up and used again before its late reply came
        completeOnAnotherThread(() -> {
            transport.callbacks.get(0).complete(OK, null);
            transport.callbacks.get(1).complete(OK, null);
        });
        List<Reported> reported = new ArrayList<>();
        transport.await(System.nanoTime() + AN_HOUR, false, (r, o, e, d) -> reported.add(new Reported(r, e)));
        assertEquals(1, reported.size());
        assertEquals(transport.requests.get(1), reported.get(0).request());
    }
}
