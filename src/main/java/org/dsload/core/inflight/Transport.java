package org.dsload.core.inflight;

import org.dsload.core.Outcome;

/**
 * How an {@link InFlightWindow} reaches a data store: sends requests, waits for their replies
 * and reports each through {@link Replies}. All calls but {@link #wakeup} come from the window's
 * thread (the JMeter thread). Two shapes fit:
 * <ul>
 * <li>an event loop run by that thread itself: {@link #await} polls the transport's own selector,
 * so no reply crosses threads (the Redis client);</li>
 * <li>a driver with callbacks on its own threads (CompletionStage, background callbacks,
 * FutureCallback): {@link CallbackTransport} queues the callbacks and {@link #await} drains the
 * queue.</li>
 * </ul>
 */
public interface Transport<R extends InFlightRequest> {

    /** A new place of the window (the window reuses it for request after request). */
    R newRequest();

    /**
     * When a request can be sent: {@code nowNanos} or earlier when one can be now, a later instant
     * while connections wait out their back-off, {@link Long#MAX_VALUE} while every connection is
     * busy (a reply will free one).
     */
    long readyAt(long nowNanos);

    /**
     * Sends a request the sampler has prepared (or queues it, to be written by {@link #flush}).
     * A request that fails at once (no connection) may be reported to {@code replies} before this
     * returns.
     */
    void send(R request, Replies<R> replies);

    /**
     * Opens, before the first request, the connections {@code places} requests outstanding will use, and
     * waits until they are made (or failed) or {@code deadlineNanos} passes. A transport that opens its
     * connections as requests need them, or that has none of its own, does nothing.
     *
     * @return whether it opened connections (the arrivals' schedule then starts after them)
     */
    default boolean openAhead(int places, long deadlineNanos, Replies<R> replies) {
        return false;
    }

    /** Writes what {@link #send} queued: one write per connection per round of sends. */
    default void flush(Replies<R> replies) {
    }

    /**
     * Reports the replies that have arrived, waiting for them until {@code deadlineNanos} at most.
     * Returns when one or more requests were reported, at the deadline, or on {@link #wakeup}.
     *
     * @param precise the deadline is an arrival's intended start, to be met to the microsecond;
     *                otherwise (a timeout, a back-off) a millisecond late is fine
     */
    void await(long deadlineNanos, boolean precise, Replies<R> replies);

    /**
     * The window gives the request up (its timeout passed, or the thread ends): whatever the
     * transport still holds for it goes, and a reply arriving later must not be taken for another
     * request's.
     */
    void abandon(R request);

    /**
     * What a request that got no reply by its deadline reports (a message naming the server and
     * the timeout); asked right before {@link #abandon}.
     */
    Outcome timedOut(R request);

    /**
     * How long a row may gather replies after its first one, the window sending meanwhile: a
     * driver that hands over replies one at a time from its own threads would otherwise make a
     * results row (and JMeter's work for a sample) of nearly every reply. Timing is per request,
     * so this delays only when a row is reported. 0: a row holds what is in when it is asked for.
     */
    default long gatherNanos() {
        return 0;
    }

    /** The socket (request) timeout that each request gets from its send. */
    long timeoutNanos();

    /** Makes a waiting {@link #await} return; may be called from any thread. */
    void wakeup();

    /** Closes every connection; nothing is outstanding any more. */
    void close();
}
