package org.dsload.core.inflight;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.dsload.core.Backoff;
import org.dsload.core.Outcome;
import org.dsload.core.PreciseWait;

/**
 * A {@link Transport} over a driver that answers on its own threads with callbacks (a
 * CompletionStage, background callbacks, a FutureCallback): {@link #start} hands the request to the
 * driver with a {@link Callback}; the callback queues the outcome and wakes the window's thread,
 * which reports it. A callback for a request the window has given up meanwhile (timed out,
 * cancelled, its place reused) is ignored. Build it on the window's thread.
 *
 * <p>A driver that owns its connections fails a request at once while it can reach no server; a
 * transport that says which outcomes mean that ({@link #unreachable}) gets its sends paced by a
 * {@link Backoff} meanwhile, so that a server that is down is not asked at machine speed.
 *
 * <p>Waking the window's thread costs both threads a system call and a context switch, as much as
 * a small request itself. So a wait ends when an eighth ({@link #BATCH_DIVISOR}) of the requests
 * outstanding have replied, or {@link #BATCH_NANOS} after it began with at least one reply in,
 * rather than at each reply, and the places they free are filled together; with no reply in by
 * then, the first one ends it. A wait for an arrival's intended start is not ended by replies at
 * all: the thread wakes at the instant anyway, with a place free for the arrival, and reports
 * then what came in. Each reply's time is taken in its callback, so batching delays only when its
 * place is filled again (an arrival waiting for a place with every place taken may so start up to
 * {@link #BATCH_NANOS} later, which its latency from its intended start shows).
 */
public abstract class CallbackTransport<R extends InFlightRequest> implements Transport<R> {
    private final Thread owner = Thread.currentThread();
    private final ConcurrentLinkedQueue<Callback<R>> done = new ConcurrentLinkedQueue<>();
    /** Callbacks in {@link #done}, counted by the driver threads that add them. */
    private final AtomicInteger queued = new AtomicInteger();
    private final Backoff backoff = new Backoff();
    /** Requests handed to the driver whose callback the window's thread has not taken yet. */
    private int started;
    /** How many queued callbacks wake the parked window thread. */
    private volatile int wakeAt = 1;
    private volatile boolean parked;
    private volatile boolean woken;

    /**
     * Hands one request to the driver; the driver's callback calls {@code callback.complete} once.
     * Not called for a request that is {@link InFlightRequest#notSent}.
     */
    protected abstract void start(R request, Callback<R> callback);

    /** The end of one use of a request place, from whichever thread the driver calls back on. */
    public static final class Callback<R extends InFlightRequest> {
        private final CallbackTransport<R> transport;
        private final R request;
        private final int generation;
        private Outcome outcome;
        private Object detail;
        private long endNanos;

        Callback(CallbackTransport<R> transport, R request) {
            this.transport = transport;
            this.request = request;
            this.generation = request.generation();
        }

        /**
         * @param outcome what the request came to
         * @param detail  what the sampler may show of it, or null
         */
        public void complete(Outcome outcome, Object detail) {
            this.endNanos = System.nanoTime();
            this.outcome = outcome;
            this.detail = detail;
            transport.done.add(this);
            int waiting = transport.queued.incrementAndGet();
            if (transport.parked && waiting >= transport.wakeAt) {
                LockSupport.unpark(transport.owner);
            }
        }
    }

    /** A row gathers replies for up to 2 ms (see {@link Transport#gatherNanos}). */
    public static final long GATHER_NANOS = 2_000_000L;
    /** A wait ends when this share of the outstanding requests has replied (an eighth)... */
    static final int BATCH_DIVISOR = 8;
    /** ... or this long after it began, with one reply in at least: a place waits that long at most to be filled again. */
    static final long BATCH_NANOS = 500_000L;

    @Override
    public long gatherNanos() {
        return GATHER_NANOS;
    }

    @Override
    public final void send(R request, Replies<R> replies) {
        Callback<R> callback = new Callback<>(this, request);
        started++;
        if (request.notSent() != null) {
            callback.complete(request.notSent(), null);
            return;
        }
        start(request, callback);
    }

    /**
     * Whether an outcome says the driver could reach no server for the request (it failed without
     * being sent); sends then wait out a back-off, until an outcome says otherwise. None by default.
     */
    protected boolean unreachable(Outcome outcome) {
        return false;
    }

    @Override
    public long readyAt(long nowNanos) {
        return backoff.waiting(nowNanos) ? backoff.notBeforeNanos() : nowNanos;
    }

    @Override
    public void await(long deadlineNanos, boolean precise, Replies<R> replies) {
        if (report(replies) > 0) {
            return;
        }
        woken = false;
        long batchEnd = System.nanoTime() + BATCH_NANOS;
        // a wait for an intended start: no reply wakes it (a wake per reply cost each request two
        // context switches and the driver's thread a system call, on cores the server shares)
        wakeAt = precise ? Integer.MAX_VALUE : Math.max(1, started / BATCH_DIVISOR);
        parked = true;
        long margin = precise ? PreciseWait.marginNanos(deadlineNanos) : 0;
        try {
            while (queued.get() < wakeAt && !woken && !Thread.currentThread().isInterrupted()) {
                long now = System.nanoTime();
                long left = deadlineNanos - now;
                if (left <= 0) {
                    break;
                }
                if (precise) {
                    if (left > margin) {
                        long target = deadlineNanos - margin;
                        LockSupport.parkNanos(left - margin);
                        if (!woken) {
                            PreciseWait.wokeAfterPark(target);
                        }
                    } else {
                        Thread.onSpinWait();
                    }
                } else if (wakeAt > 1) {
                    if (now - batchEnd < 0) {
                        LockSupport.parkNanos(Math.min(left, batchEnd - now));
                    } else if (queued.get() > 0) {
                        break; // a partial batch: its places are not kept waiting longer
                    } else {
                        wakeAt = 1; // no reply yet: the first one ends the wait
                    }
                } else {
                    LockSupport.parkNanos(left);
                }
            }
        } finally {
            parked = false;
        }
        report(replies);
    }

    private int report(Replies<R> replies) {
        int count = 0;
        Callback<R> c;
        while ((c = done.poll()) != null) {
            queued.decrementAndGet();
            started--;
            if (c.request.generation() == c.generation) {
                if (unreachable(c.outcome)) {
                    backoff.failed(c.endNanos);
                } else if (backoff.failures() > 0) {
                    backoff.succeeded();
                }
                replies.complete(c.request, c.outcome, c.endNanos, c.detail);
                count++;
            }
        }
        return count;
    }

    /** Nothing to drop by default: a late callback is recognised by its generation. */
    @Override
    public void abandon(R request) {
    }

    @Override
    public void wakeup() {
        woken = true;
        LockSupport.unpark(owner);
    }
}
