package org.dsload.core.inflight;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.dsload.core.ArrivalSource;
import org.dsload.core.Completion;
import org.dsload.core.GeneratorMetrics;
import org.dsload.core.Outcome;

/**
 * Up to N requests outstanding at once from one JMeter thread, each timed on its own from its send
 * (and, under an arrival schedule, from its intended start) to its reply. It sends while fewer
 * than N are outstanding, through a {@link Transport} that owns the connections; each call of
 * {@link #next} returns the requests that have ended since, one results row's worth: requests of
 * one kind (success and response code), the others kept for the next call.
 *
 * <p>Closed model (no arrival source): N outstanding at all times. Open model: arrivals from the
 * offered {@link ArrivalSource}, each sent at its intended start when a place is free; when all N
 * are outstanding the next arrival waits (it starts late, and its wait is in its corrected
 * latency), so N is the cap on concurrency and no thread is parked per request. While the
 * transport backs off from a store it cannot reach, the arrivals that fall due are dropped
 * ({@link ArrivalSource#dropUntil}): counted with the next one sent, not sent late in a burst once
 * it may send again.
 *
 * <p>A counted run ({@link #count}): only so many requests are sent, N at a time, and once the last
 * has ended {@link #next} returns at once with nothing; {@link #countEnded} says so.
 *
 * <p>Every request ends exactly once: with its reply, at its own timeout, or {@link #CANCELLED} when
 * the test is stopped ({@link #requestStop}, an interrupted thread). At the thread's end time, and
 * when the thread ends ({@link #drain}), nothing more is sent and the requests outstanding are
 * waited for, each up to its own timeout and at most {@link #END_GRACE_NANOS}, as JMeter lets a
 * sample in progress finish: a request on the wire when the duration ends is not a failure, and a
 * server that stopped answering does not hold the thread's end; what is left then is cancelled.
 *
 * <p>Used by one thread only, except {@link #requestStop}.
 */
public final class InFlightWindow<R extends InFlightRequest> implements Replies<R> {
    /** Response code of a request still outstanding when its thread stopped sampling. */
    public static final String CANCELLED = "CANCELLED";
    /** Requests in one row at most, so that a row's timing value stays a few kilobytes. */
    static final int MAX_ROW = 1000;
    /** How long past the thread's end outstanding requests are waited for before they are cancelled. */
    public static final long END_GRACE_NANOS = 1_000_000_000L;
    /** How long a thread waits at most for the connections it opens before its first arrival (the schedule starts after). */
    static final long OPEN_AHEAD_NANOS = 1_000_000_000L;
    /** Longest wait without looking at the thread's end and stop requests. */
    private static final long MAX_WAIT_NANOS = 100_000_000L;

    /** Fills a request's payload (its command) right before it is sent. */
    public interface Preparer<R> {
        void prepare(R request);
    }

    private final int places;
    private final Transport<R> transport;
    private final long timeoutNanos;
    private final ArrayDeque<R> spare = new ArrayDeque<>();
    private final ArrayList<Completion> ready = new ArrayList<>();
    private int outstanding;
    private InFlightRequest head;
    private InFlightRequest tail;
    private ArrivalSource arrivals;
    private ArrivalSource.Arrival pending;
    private boolean arrivalsEnded;
    /** The transport was asked to open its connections before the first arrival source was taken from. */
    private boolean openedAhead;
    /** The arrivals' end is the end of the thread's work: no wait for the thread's end time after it. */
    private boolean workEndsWithArrivals;
    /** Arrivals dropped during a back-off: counted with the next one sent. */
    private long droppedCarried;
    private long endNanos = Long.MAX_VALUE;
    /** Requests the counted run may still send; negative: no count. */
    private long sendsLeft = -1;
    /** The last {@link #next} ended sending: the test stopped, or the thread's end came. */
    private boolean halted;
    private volatile boolean stopRequested;

    public InFlightWindow(int places, Transport<R> transport) {
        if (places < 1) {
            throw new IllegalArgumentException("a window has at least one place, got " + places);
        }
        this.places = places;
        this.transport = transport;
        this.timeoutNanos = transport.timeoutNanos();
    }

    /**
     * Sets the pace for the coming {@link #next} call: the arrival source offered to this sample
     * (null: closed model) and the thread's end ({@link Long#MAX_VALUE}: none), from which nothing
     * more is sent and the outstanding requests are waited for. A source that had ended is taken
     * from again when it says when it resumes ({@link ArrivalSource#resumesAtNanos}).
     */
    public void pace(ArrivalSource source, long threadEndNanos) {
        if (source != arrivals) {
            arrivals = source;
            arrivalsEnded = false;
            if (source != null && !openedAhead) {
                openedAhead = true;
                if (transport.openAhead(places, System.nanoTime() + OPEN_AHEAD_NANOS, this)) {
                    source.ready(System.nanoTime());
                }
            }
        } else if (arrivalsEnded && source != null && source.resumesAtNanos() != Long.MAX_VALUE) {
            arrivalsEnded = false; // it had ended, and has work again (handed back to be sent later)
        }
        endNanos = threadEndNanos;
    }

    /**
     * The arrival source's end is the end of this thread's work (a shared count of operations, the
     * records to load), not of a schedule: once it has ended and every request is answered, {@link
     * #next} returns at once instead of at the thread's end time. A thread that starts after the
     * others took the last of the work so ends at its first sample.
     */
    public void workEndsWithArrivals() {
        workEndsWithArrivals = true;
    }

    /**
     * Starts a counted run: from now on at most {@code requests} more requests are sent.
     *
     * @param requests at least 1
     */
    public void count(long requests) {
        if (requests < 1) {
            throw new IllegalArgumentException("a counted run sends at least one request, got " + requests);
        }
        sendsLeft = requests;
        halted = false;
    }

    /** Whether the counted run sent all its requests and every one has ended and been returned. */
    public boolean countEnded() {
        return sendsLeft == 0 && outstanding == 0 && ready.isEmpty();
    }

    /** Whether the last {@link #next} stopped sending for good: the test stopped, or the thread's end came. */
    public boolean halted() {
        return halted;
    }

    /**
     * Sends what there is room for and returns the next row of ended requests, waiting for one if
     * none has ended yet.
     *
     * @return requests of one kind; empty when there is nothing left to wait for: a counted run
     *         ended (at once), or the arrivals ended and every request is answered (this returns at
     *         the thread's end time then)
     */
    public List<Completion> next(Preparer<R> preparer) {
        long gatherNanos = transport.gatherNanos();
        long rowDue = 0;
        while (true) {
            long now = System.nanoTime();
            if (stopRequested || Thread.currentThread().isInterrupted()) {
                stopRequested = false;
                halted = true;
                cancelAll(now);
                return takeRow();
            }
            if (endNanos != Long.MAX_VALUE && now - endNanos >= 0) {
                dropDueArrival(now);
                awaitOutstanding(endNanos + END_GRACE_NANOS);
                cancelAll(System.nanoTime(), stopRequested ? STOPPED : AFTER_END);
                halted = true;
                return takeRow();
            }
            expire(now);
            long wake = fill(now, preparer);
            if (!ready.isEmpty()) {
                // A row waits for as many replies as there are places (or the gathering time, or
                // until nothing is outstanding): each request keeps its own time whatever the row,
                // and every row costs JMeter a sample. While it gathers, the wait below reads the
                // replies; once it is due, replies already in join it (fewer rows, each reply read
                // as soon as possible), and their places are filled again: the window stays full
                // while the row is recorded.
                if (rowDue == 0) {
                    rowDue = now + gatherNanos;
                }
                if (now - rowDue >= 0 || ready.size() >= places || outstanding == 0) {
                    if (ready.size() < places) {
                        transport.await(now, false, this);
                    }
                    fill(System.nanoTime(), preparer);
                    return takeRow();
                }
            }
            if (countEnded()) {
                return List.of();
            }
            if (ready.isEmpty() && outstanding == 0 && pending == null && arrivalsEnded) {
                if (!workEndsWithArrivals) {
                    awaitEnd();
                }
                return takeRow();
            }
            long deadline = Math.min(wake, now + MAX_WAIT_NANOS);
            if (rowDue != 0) {
                deadline = Math.min(deadline, rowDue);
            }
            if (head != null) {
                deadline = Math.min(deadline, head.deadlineNanos);
            }
            if (endNanos != Long.MAX_VALUE) {
                deadline = Math.min(deadline, endNanos);
            }
            boolean precise = pending != null && pending.scheduled() && deadline == pending.intendedNanos();
            transport.await(deadline, precise, this);
        }
    }

    private boolean stopping(long now) {
        return stopRequested || Thread.currentThread().isInterrupted()
                || endNanos != Long.MAX_VALUE && now - endNanos >= 0;
    }

    /** No arrival left for this thread: wait for its end (JMeter then ends it), replies of nothing. */
    private void awaitEnd() {
        while (true) {
            long now = System.nanoTime();
            if (stopping(now) || endNanos == Long.MAX_VALUE) {
                stopRequested = false;
                return;
            }
            transport.await(Math.min(endNanos, now + MAX_WAIT_NANOS), false, this);
        }
    }

    /** @return when to look again for the next send: an arrival's intended start, the end of a back-off, or never */
    private long fill(long now, Preparer<R> preparer) {
        int budget = places - outstanding;
        long wake = Long.MAX_VALUE;
        boolean sent = false;
        while (budget > 0 && outstanding < places && sendsLeft != 0) {
            long readyAt = transport.readyAt(now);
            if (readyAt == Long.MAX_VALUE || readyAt - now > 0) {
                if (readyAt != Long.MAX_VALUE) {
                    dropUntil(readyAt);
                }
                wake = readyAt;
                break;
            }
            ArrivalSource.Arrival arrival = null;
            if (arrivals != null || pending != null) {
                if (pending == null) {
                    if (arrivalsEnded) {
                        break;
                    }
                    pending = arrivals.take(now);
                    if (pending == null) {
                        long resumes = arrivals.resumesAtNanos();
                        if (resumes == Long.MAX_VALUE) {
                            arrivalsEnded = true;
                        } else {
                            wake = resumes; // none for now: asked again then
                        }
                        break;
                    }
                }
                if (pending.dueAfter(now)) {
                    wake = pending.intendedNanos();
                    break;
                }
                arrival = pending;
                pending = null;
            }
            R request = spare.isEmpty() ? transport.newRequest() : spare.pop();
            if (arrival != null) {
                request.intendedNanos = arrival.intendedNanos();
                request.dropped = arrival.dropped() + droppedCarried;
                droppedCarried = 0;
            }
            preparer.prepare(request);
            long sendNanos = System.nanoTime();
            request.sendNanos = sendNanos;
            request.deadlineNanos = sendNanos + timeoutNanos;
            request.outstanding = true;
            outstanding++;
            GeneratorMetrics.requestsInFlight(1);
            append(request);
            transport.send(request, this);
            sent = true;
            budget--;
            if (sendsLeft > 0) {
                sendsLeft--;
            }
            now = sendNanos;
        }
        if (sent) {
            transport.flush(this);
        }
        return wake;
    }

    /** Gives up the requests whose deadline has passed, oldest first. */
    @SuppressWarnings("unchecked")
    private void expire(long now) {
        while (head != null && head.deadlineNanos - now <= 0) {
            R request = (R) head;
            Outcome timedOut = transport.timedOut(request);
            transport.abandon(request);
            complete(request, timedOut, now, null);
        }
    }

    @Override
    public void complete(R request, Outcome outcome, long endNanos, Object detail) {
        if (!request.outstanding) {
            return;
        }
        unlink(request);
        request.outstanding = false;
        outstanding--;
        GeneratorMetrics.requestsInFlight(-1);
        ready.add(new Completion(request.intendedNanos, request.sendNanos, Math.max(endNanos, request.sendNanos),
                request.dropped, request.count, outcome, detail != null ? detail : request.unanswered()));
        request.reuse();
        spare.push(request);
    }

    /**
     * The transport backs off until {@code untilNanos} (its store cannot be reached): the arrivals
     * due before then are dropped, counted with the next one sent, rather than sent late together
     * once it may send again.
     */
    private void dropUntil(long untilNanos) {
        if (arrivals == null || arrivalsEnded) {
            return;
        }
        if (pending != null && pending.scheduled() && pending.intendedNanos() - untilNanos < 0) {
            arrivals.dropped(1);
            droppedCarried += pending.dropped() + 1;
            pending = null;
        }
        droppedCarried += arrivals.dropUntil(untilNanos);
    }

    /** An arrival due and not sent counts as dropped; nothing more is sent for it. */
    private void dropDueArrival(long now) {
        if (pending != null && pending.scheduled() && !pending.dueAfter(now)) {
            if (arrivals != null) {
                arrivals.dropped(1);
            } else {
                GeneratorMetrics.arrivalsDropped(1);
            }
        }
        pending = null;
    }

    /**
     * Waits until no request is outstanding (each ends with its reply or at its own timeout), or
     * until {@code untilNanos}, a stop request or an interrupt.
     */
    private void awaitOutstanding(long untilNanos) {
        while (outstanding > 0 && !stopRequested && !Thread.currentThread().isInterrupted()) {
            long now = System.nanoTime();
            expire(now);
            if (outstanding == 0 || now - untilNanos >= 0) {
                return;
            }
            transport.await(Math.min(Math.min(head.deadlineNanos, untilNanos), now + MAX_WAIT_NANOS), false, this);
        }
    }

    private static final String STOPPED = "cancelled: still outstanding when the test was stopped";
    private static final String AFTER_END = "cancelled: still outstanding " + END_GRACE_NANOS / 1_000_000
            + " ms after the thread's end (its duration or its loops)";

    private void cancelAll(long now) {
        cancelAll(now, STOPPED);
    }

    /** Every outstanding request ends as {@link #CANCELLED}; an arrival due and not sent counts as dropped. */
    @SuppressWarnings("unchecked")
    private void cancelAll(long now, String why) {
        dropDueArrival(now);
        while (head != null) {
            R request = (R) head;
            transport.abandon(request);
            complete(request, Outcome.failed(CANCELLED, why,
                    request.sentBytes, 0), now, null);
        }
    }

    private List<Completion> takeRow() {
        if (ready.isEmpty()) {
            return List.of();
        }
        Outcome kind = ready.get(0).outcome();
        List<Completion> row = new ArrayList<>(Math.min(ready.size(), MAX_ROW));
        int kept = 0;
        for (int i = 0; i < ready.size(); i++) {
            Completion c = ready.get(i);
            if (row.size() < MAX_ROW && (c.outcome() == kind || c.outcome().sameKind(kind))) {
                row.add(c);
            } else {
                ready.set(kept++, c);
            }
        }
        ready.subList(kept, ready.size()).clear();
        return row;
    }

    /**
     * The thread stops sampling: nothing more is sent, the outstanding requests are waited for (each
     * up to its own timeout, all of them at most {@link #END_GRACE_NANOS}; cancelled at once when
     * the test was stopped), the connections closed, and every row not yet returned is returned now.
     */
    public List<List<Completion>> drain() {
        long now = System.nanoTime();
        dropDueArrival(now);
        awaitOutstanding(now + END_GRACE_NANOS); // returns at once for a stopped test
        cancelAll(System.nanoTime(), stopRequested || Thread.currentThread().isInterrupted() ? STOPPED : AFTER_END);
        transport.close();
        List<List<Completion>> rows = new ArrayList<>();
        while (!ready.isEmpty()) {
            rows.add(takeRow());
        }
        return rows;
    }

    /** Makes the current (or next) {@link #next} cancel what is outstanding and return; any thread. */
    public void requestStop() {
        stopRequested = true;
        transport.wakeup();
    }

    /** Requests sent and not yet ended. */
    public int outstanding() {
        return outstanding;
    }

    /** Appends at the tail, or further up when the deadline is earlier (a shorter timeout): the head is always the first to expire. */
    private void append(InFlightRequest request) {
        InFlightRequest after = tail;
        while (after != null && after.deadlineNanos - request.deadlineNanos > 0) {
            after = after.prev;
        }
        request.prev = after;
        request.next = after == null ? head : after.next;
        if (after == null) {
            head = request;
        } else {
            after.next = request;
        }
        if (request.next == null) {
            tail = request;
        } else {
            request.next.prev = request;
        }
    }

    private void unlink(InFlightRequest request) {
        if (request.prev == null) {
            head = request.next;
        } else {
            request.prev.next = request.next;
        }
        if (request.next == null) {
            tail = request.prev;
        } else {
            request.next.prev = request.prev;
        }
        request.prev = null;
        request.next = null;
    }
}
