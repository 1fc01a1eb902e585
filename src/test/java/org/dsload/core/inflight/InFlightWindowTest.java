package org.dsload.core.inflight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.dsload.core.ArrivalSource;
import org.dsload.core.Completion;
import org.dsload.core.Outcome;
import org.dsload.core.inflight.InMemoryStore.Answer;
import org.dsload.testing.ThreadStates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class InFlightWindowTest {
    private static final long MS = 1_000_000;

    /** Numbers the requests in the order they are sent. */
    private static InFlightWindow.Preparer<InMemoryStore.Request> numbered(AtomicInteger counter) {
        return request -> request.number = counter.getAndIncrement();
    }

    private static List<Completion> collect(InFlightWindow<InMemoryStore.Request> window,
            InFlightWindow.Preparer<InMemoryStore.Request> preparer, int atLeast) {
        List<Completion> all = new ArrayList<>();
        while (all.size() < atLeast) {
            List<Completion> row = window.next(preparer);
            assertFalse(row.isEmpty(), "a closed window always has a row to return");
            all.addAll(row);
        }
        return all;
    }

    /** Every row the window returns until it returns an empty one (no arrival left). */
    private static List<Completion> untilEmpty(InFlightWindow<InMemoryStore.Request> window) {
        List<Completion> all = new ArrayList<>();
        List<Completion> row;
        while (!(row = window.next(numbered(new AtomicInteger()))).isEmpty()) {
            all.addAll(row);
        }
        return all;
    }

    @Test
    void aClosedWindowKeepsExactlyItsPlacesOutstandingAndEndsEveryRequestOnce() {
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(2, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(5, store);
            List<Completion> answered = new ArrayList<>(collect(window, numbered(new AtomicInteger()), 200));
            assertEquals(5, store.mostHeld.get(), "never more than 5 outstanding, and 5 reached");
            assertEquals(5, window.outstanding(), "the window stays full between rows");
            for (int i = 0; i < 50; i++) {
                answered.addAll(window.next(numbered(new AtomicInteger(10_000 + 100 * i))));
                assertEquals(5, window.outstanding(), "full again each time a row is returned");
            }
            assertTrue(answered.stream().allMatch(c -> c.outcome().success() && c.count() == 1));

            List<List<Completion>> rest = window.drain();
            long cancelled = rest.stream().flatMap(List::stream)
                    .filter(c -> c.outcome().code().equals(InFlightWindow.CANCELLED)).count();
            long late = rest.stream().flatMap(List::stream).filter(c -> c.outcome().success()).count();
            assertEquals(store.sent.get(), answered.size() + late + cancelled, "every request sent ends once");
            assertEquals(0, window.outstanding());
            assertTrue(cancelled <= 5);
            assertTrue(rest.stream().flatMap(List::stream).filter(c -> !c.outcome().success())
                    .allMatch(c -> c.outcome().sentBytes() == 10), "a cancelled request keeps the bytes it sent");
        }
    }

    /** A driver that hands over one reply each time the window waits, as replies trickle in from its threads. */
    private static final class Trickle extends CallbackTransport<InMemoryStore.Request> {
        private final java.util.ArrayDeque<Callback<InMemoryStore.Request>> held = new java.util.ArrayDeque<>();
        int sent;

        @Override
        public InMemoryStore.Request newRequest() {
            return new InMemoryStore.Request();
        }

        @Override
        protected void start(InMemoryStore.Request request, Callback<InMemoryStore.Request> callback) {
            sent++;
            held.add(callback);
        }

        @Override
        public void await(long deadlineNanos, boolean precise, Replies<InMemoryStore.Request> replies) {
            if (!held.isEmpty()) {
                held.poll().complete(InMemoryStore.OK, null);
            }
            super.await(deadlineNanos, precise, replies);
        }

        @Override
        public Outcome timedOut(InMemoryStore.Request request) {
            return Outcome.failed("TIMEOUT", "no reply", 0, 0);
        }

        @Override
        public long timeoutNanos() {
            return 60_000 * MS;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aRowOfACallbackTransportGathersRepliesThatTrickleInWhileTheWindowKeepsSending() {
        Trickle trickle = new Trickle();
        InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(8, trickle);
        List<Completion> all = new ArrayList<>();
        int rows = 0;
        while (all.size() < 400) {
            List<Completion> row = window.next(numbered(new AtomicInteger()));
            assertTrue(row.size() <= 8);
            all.addAll(row);
            rows++;
        }
        assertTrue(rows < all.size() / 2, rows + " rows for " + all.size() + " replies that came one at a time");
        assertTrue(window.outstanding() >= 7, "the window refilled its places while a row gathered: "
                + window.outstanding());
        assertEquals(trickle.sent, all.size() + window.outstanding(), "every request sent is answered once or outstanding");
    }

    @Test
    void aRequestItsPreparerCouldNotMakeEndsUnsentWithTheOutcomeGivenAndItsPlaceIsReusedClean() {
        Trickle trickle = new Trickle();
        InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, trickle);
        Outcome bad = Outcome.failed("BAD_VALUE", "no such field", 0, 0);
        AtomicInteger prepared = new AtomicInteger();
        InFlightWindow.Preparer<InMemoryStore.Request> everyThirdBad = request -> {
            request.number = prepared.getAndIncrement();
            if (request.number % 3 == 0) {
                request.notSent(bad);
            }
        };
        List<Completion> all = new ArrayList<>();
        while (all.size() < 90) {
            all.addAll(window.next(everyThirdBad));
        }
        int made = prepared.get();
        int unsent = (made + 2) / 3;
        assertEquals(made - unsent, trickle.sent, "of " + made + " requests prepared, only those made reach the driver");
        assertTrue(all.stream().anyMatch(c -> c.outcome() == bad), "the unsent ones end with the preparer's outcome");
        assertTrue(all.stream().allMatch(c -> c.outcome() == bad || c.outcome().success()));
    }

    @Test
    void aSlowRequestHoldsUpNoOtherAndEachIsTimedFromItsOwnSend() {
        // request 0 takes 300 ms, the others 1 ms: the others come back first, each with its own time
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(n == 0 ? 300 : 1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, store);
            InFlightWindow.Preparer<InMemoryStore.Request> preparer = numbered(new AtomicInteger());
            List<Completion> answered = new ArrayList<>();
            while (answered.stream().noneMatch(c -> "reply to 0".equals(c.detail()))) {
                answered.addAll(window.next(preparer));
            }
            Completion slow = answered.stream().filter(c -> "reply to 0".equals(c.detail())).findFirst().orElse(null);
            int slowAt = answered.indexOf(slow);
            assertTrue(slowAt > 20, "requests sent after the slow one ended before it: it came " + slowAt + "th");
            assertTrue(slow.elapsedMicros() >= 300_000, "the slow request shows its 300 ms: " + slow.elapsedMicros());
            assertTrue(answered.stream().filter(c -> c != slow).allMatch(c -> c.elapsedMicros() >= 1_000),
                    "every other request shows at least its own 1 ms");
            window.drain();
        }
    }

    @Test
    void aRowHoldsOneKindAndTheOthersWaitForTheNextCall() {
        Outcome wrongType = Outcome.failed("WRONGTYPE", "wrong kind", 10, 30);
        try (InMemoryStore store = new InMemoryStore(10_000,
                n -> new Answer(1, n % 3 == 0 ? wrongType : InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(6, store);
            InFlightWindow.Preparer<InMemoryStore.Request> preparer = numbered(new AtomicInteger());
            int rows = 0;
            int failed = 0;
            int total = 0;
            while (total < 300) {
                List<Completion> row = window.next(preparer);
                Set<String> codes = row.stream().map(c -> c.outcome().code()).collect(Collectors.toSet());
                assertEquals(1, codes.size(), "one kind per row: " + codes);
                failed += codes.contains("WRONGTYPE") ? row.size() : 0;
                total += row.size();
                rows++;
            }
            assertTrue(rows > 1);
            assertTrue(failed > 0 && failed < total, failed + " of " + total);
            window.drain();
        }
    }

    @Test
    void aRequestWithoutAReplyFailsAtItsOwnTimeoutAndItsLateReplyIsIgnored() {
        // every 4th request is answered only after 400 ms, past the 100 ms timeout
        try (InMemoryStore store = new InMemoryStore(100, n -> new Answer(n % 4 == 0 ? 400 : 1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, store);
            List<Completion> ended = collect(window, numbered(new AtomicInteger()), 60);
            List<Completion> timedOut = ended.stream().filter(c -> c.outcome().code().equals("TIMEOUT")).toList();
            assertFalse(timedOut.isEmpty());
            assertTrue(timedOut.stream().allMatch(c -> c.elapsedMicros() >= 100_000), "each waited its 100 ms");
            assertTrue(timedOut.stream().allMatch(c -> c.detail() == null), "a timed-out request has no reply");
            // the late replies arrive while the window goes on: none may count as another request's
            ended.addAll(collect(window, numbered(new AtomicInteger(1_000_001)), 40));
            List<List<Completion>> rest = window.drain();
            long total = ended.size() + rest.stream().mapToLong(List::size).sum();
            assertEquals(store.sent.get(), total, "every request ends exactly once, late replies ignored");
        }
    }

    @Test
    void arrivalsAreSentAtTheirIntendedStartAndNeverBefore() {
        long first = System.nanoTime() + 20 * MS;
        List<Long> intended = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            intended.add(first + i * 3 * MS);
        }
        ArrivalSource source = new ArrivalSource() {
            private int next;

            @Override
            public Arrival take(long nowNanos) {
                return next < intended.size() ? new Arrival(intended.get(next++), next == 5 ? 2 : 0) : null;
            }
        };
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(8, store);
            window.pace(source, Long.MAX_VALUE);
            List<Completion> all = untilEmpty(window);
            assertEquals(30, all.size(), "one request per arrival, then nothing left");
            assertEquals(intended, all.stream().map(Completion::intendedNanos).sorted().toList());
            assertTrue(all.stream().allMatch(c -> c.sendNanos() >= c.intendedNanos()), "never sent early");
            assertEquals(2, all.stream().mapToLong(Completion::dropped).sum(), "dropped arrivals travel with the next");
        }
    }

    @Test
    void connectionsOpenedAheadComeBeforeTheScheduleStartsAndItsFirstArrival() {
        List<String> said = new ArrayList<>();
        ArrivalSource source = new ArrivalSource() {
            private int next;

            @Override
            public Arrival take(long nowNanos) {
                said.add("take");
                return next++ < 3 ? new Arrival(nowNanos, 0) : null;
            }

            @Override
            public void ready(long nowNanos) {
                said.add("ready");
            }
        };
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(1, InMemoryStore.OK)) {
            @Override
            public boolean openAhead(int places, long deadlineNanos, Replies<Request> replies) {
                said.add("open " + places);
                return true;
            }
        }) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, store);
            window.pace(source, Long.MAX_VALUE);
            List<Completion> all = untilEmpty(window);
            assertEquals(3, all.size());
            assertEquals(List.of("open 4", "ready", "take"), said.subList(0, 3), "opened once, then the start");
            assertEquals(1, said.stream().filter(s -> s.startsWith("open")).count(), "opened once: " + said);
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(30)
    void aThreadWhoseSharedWorkIsAlreadyTakenEndsAtOnceNotAtItsEndTime() {
        ArrivalSource none = nowNanos -> null; // the other threads took the last operation
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, store);
            window.workEndsWithArrivals();
            long end = System.nanoTime() + 3_600_000 * MS;
            window.pace(none, end);
            long before = System.nanoTime();
            assertTrue(window.next(numbered(new AtomicInteger())).isEmpty(), "nothing was sent");
            assertTrue(System.nanoTime() - before < 10_000 * MS, "it returned at once, not at the thread's end");
            assertEquals(0, store.sent.get());
        }
    }

    @Test
    void whileTheTransportWaitsOutABackOffNothingIsSentAndTheWindowDoesNotSpin() {
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(1, InMemoryStore.OK))) {
            long downUntil = System.nanoTime() + 200 * MS;
            store.readyAtNanos = downUntil;
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(3, store);
            List<Completion> row = window.next(numbered(new AtomicInteger()));
            assertTrue(row.get(0).sendNanos() >= downUntil, "the first request waited for the transport");
            assertTrue(store.readyChecks.get() < 20, "it waited rather than asked in a loop: "
                    + store.readyChecks.get() + " checks");
            window.drain();
        }
    }

    @Test
    void arrivalsDueWhileTheTransportBacksOffAreDroppedNotSentLateTogether() {
        long start = System.nanoTime();
        long downUntil = start + 200 * MS;
        List<Long> skipped = new ArrayList<>();
        ArrivalSource source = new ArrivalSource() {
            private long next = start;

            @Override
            public Arrival take(long nowNanos) {
                if (next - (start + 300 * MS) > 0) {
                    return null;
                }
                long due = next;
                next += 10 * MS;
                return new Arrival(due, 0);
            }

            @Override
            public long dropUntil(long untilNanos) {
                long count = 0;
                while (next - untilNanos < 0) {
                    skipped.add(next);
                    next += 10 * MS;
                    count++;
                }
                return count;
            }
        };
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(1, InMemoryStore.OK))) {
            store.readyAtNanos = downUntil;
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, store);
            window.pace(source, Long.MAX_VALUE);
            List<Completion> sent = new ArrayList<>();
            List<Completion> row;
            while (!(row = window.next(numbered(new AtomicInteger()))).isEmpty()) {
                sent.addAll(row);
            }
            assertTrue(skipped.size() >= 19, "the arrivals due in the 200 ms back-off are dropped: " + skipped.size());
            assertTrue(skipped.stream().allMatch(due -> due - downUntil < 0), "and none due after it");
            assertEquals(31, sent.size() + skipped.size(), "every arrival is sent or dropped, once");
            assertTrue(sent.stream().allMatch(c -> c.intendedNanos() - downUntil >= 0), "none is sent late after it");
            assertEquals(skipped.size(), sent.stream().mapToLong(Completion::dropped).sum(),
                    "the dropped ones are counted with the next sent");
        }
    }

    @Test
    void aStopFromAnotherThreadCancelsWhatIsOutstanding() throws Exception {
        try (InMemoryStore store = new InMemoryStore(60_000, n -> new Answer(-1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(7, store);
            Thread sampling = Thread.currentThread();
            Thread stopper = new Thread(() -> {
                try {
                    ThreadStates.awaitWaiting(sampling, Duration.ofSeconds(10)); // the 7 sent, waiting for replies
                } catch (InterruptedException e) {
                    return;
                }
                window.requestStop();
            });
            stopper.start();
            List<Completion> row = window.next(numbered(new AtomicInteger()));
            stopper.join();
            assertEquals(7, row.size());
            assertTrue(row.stream().allMatch(c -> c.outcome().code().equals(InFlightWindow.CANCELLED)));
            assertEquals(0, window.outstanding());
        }
    }

    @Test
    void aCountedRunSendsExactlyItsCountAtMostThePlacesAtOnceThenReturnsNothingAtOnce() {
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, store);
            AtomicInteger numbers = new AtomicInteger();
            for (int run = 1; run <= 2; run++) {
                window.count(23);
                List<Completion> all = new ArrayList<>();
                while (!window.countEnded()) {
                    List<Completion> row = window.next(numbered(numbers));
                    assertFalse(row.isEmpty(), "a row each call until the run has ended");
                    all.addAll(row);
                }
                assertEquals(23, all.size(), "run " + run + ": every request of the count ended once");
                assertEquals(23L * run, store.sent.get(), "run " + run + ": exactly the count sent");
                assertEquals(0, window.outstanding());
                long before = System.nanoTime();
                assertTrue(window.next(numbered(numbers)).isEmpty(), "an ended run has nothing more");
                assertTrue(System.nanoTime() - before < 50 * MS, "and says so without waiting");
                assertFalse(window.halted());
            }
            assertEquals(4, store.mostHeld.get(), "never more than the places outstanding");
            assertEquals(46, numbers.get(), "the preparer saw each request once");
        }
    }

    @Test
    void aCountedRunCutByTheThreadsEndSaysItHalted() {
        try (InMemoryStore store = new InMemoryStore(60_000, n -> new Answer(30, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(2, store);
            window.count(1_000);
            window.pace(null, System.nanoTime() + 100 * MS);
            List<Completion> all = new ArrayList<>();
            while (!window.halted()) {
                all.addAll(window.next(numbered(new AtomicInteger())));
            }
            assertTrue(store.sent.get() < 1_000, "the end came first: " + store.sent.get());
            assertEquals(store.sent.get(), all.size(), "each request sent ended before the end was reported");
            assertFalse(window.countEnded(), "the count was not reached");
        }
    }

    @Test
    void atTheThreadsEndTimeNothingMoreIsSentAndOutstandingRequestsAreWaitedFor() {
        try (InMemoryStore store = new InMemoryStore(60_000, n -> new Answer(200, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(3, store);
            long end = System.nanoTime() + 100 * MS;
            window.pace(null, end);
            List<Completion> row = window.next(numbered(new AtomicInteger()));
            assertEquals(3, row.size());
            assertTrue(row.stream().allMatch(c -> c.outcome().success() && c.endNanos() - c.sendNanos() >= 200 * MS),
                    "answered after the end, each with its own latency: " + row);
            assertTrue(window.next(numbered(new AtomicInteger())).isEmpty());
            assertEquals(3, store.sent.get(), "nothing is sent after the end");
            assertTrue(window.drain().isEmpty());
        }
    }

    @Test
    void atTheThreadsEndARequestNeverAnsweredEndsAtItsOwnTimeoutNotBefore() {
        try (InMemoryStore store = new InMemoryStore(300, n -> new Answer(-1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(2, store);
            long end = System.nanoTime() + 50 * MS;
            window.pace(null, end);
            List<Completion> row = window.next(numbered(new AtomicInteger()));
            assertEquals(2, row.size());
            assertTrue(row.stream().allMatch(c -> c.outcome().code().equals("TIMEOUT")
                    && c.endNanos() - c.sendNanos() >= 300 * MS), row.toString());
            assertEquals(2, store.sent.get());
        }
    }

    @Test
    void atTheThreadsEndARequestWithALongTimeoutIsCancelledAfterTheGrace() {
        try (InMemoryStore store = new InMemoryStore(60_000, n -> new Answer(n == 0 ? 5 : -1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(2, store);
            long end = System.nanoTime() + 50 * MS;
            window.pace(null, end);
            List<Completion> all = new ArrayList<>(window.next(numbered(new AtomicInteger())));
            while (all.size() < store.sent.get()) {
                List<Completion> row = window.next(numbered(new AtomicInteger(100)));
                if (row.isEmpty()) {
                    break;
                }
                all.addAll(row);
            }
            window.drain().forEach(all::addAll);
            List<Completion> cancelled = all.stream()
                    .filter(c -> c.outcome().code().equals(InFlightWindow.CANCELLED)).toList();
            // the first request is answered after 5 ms, and its place filled again, unless a loaded machine
            // delays the answer past the end: one or two requests are never answered
            assertTrue(store.sent.get() == 2 || store.sent.get() == 3, "sent " + store.sent.get());
            assertEquals(store.sent.get() - 1, cancelled.size(), "those never answered: " + all);
            assertTrue(cancelled.stream().allMatch(c -> c.endNanos() - end >= InFlightWindow.END_GRACE_NANOS),
                    "cancelled once the grace after the end had passed, not before");
            assertTrue(cancelled.get(0).outcome().message().contains("after the thread's end"),
                    cancelled.get(0).outcome().message());
        }
    }

    @Test
    void aThreadEndingAfterAStopCancelsWhatIsOutstandingAtOnce() {
        try (InMemoryStore store = new InMemoryStore(60_000, n -> new Answer(n < 4 ? 1 : -1, InMemoryStore.OK))) {
            InFlightWindow<InMemoryStore.Request> window = new InFlightWindow<>(4, store);
            List<Completion> first = window.next(numbered(new AtomicInteger()));
            assertFalse(first.isEmpty());
            window.requestStop();
            long start = System.nanoTime();
            List<Completion> rest = window.drain().stream().flatMap(List::stream).toList();
            assertTrue(System.nanoTime() - start < 10_000 * MS, "not waited for until their 60 s timeout");
            assertFalse(rest.isEmpty());
            assertEquals(4, rest.stream().filter(c -> c.outcome().code().equals(InFlightWindow.CANCELLED)).count(),
                    "the 4 never answered are cancelled: " + rest);
            assertEquals(store.sent.get(), first.size() + rest.size(), "every request ends once");
        }
    }
}
