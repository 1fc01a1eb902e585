package org.dsload.core.inflight;

import org.dsload.core.Completion;
import org.dsload.core.Outcome;

/**
 * One place of an {@link InFlightWindow}: a request from its send to its reply, then the next
 * one. The window keeps as many as it has places and reuses them, so a request costs no
 * allocation of its own; a transport extends the class with what it needs to send the request and
 * to match its reply (a command, a connection, a driver future).
 *
 * <p>A callback from a driver thread may arrive after its request was given up (timed out,
 * cancelled) and the place reused: {@link #generation()} tells the uses apart.
 */
public abstract class InFlightRequest {
    long intendedNanos = Completion.UNSCHEDULED;
    long sendNanos;
    long deadlineNanos;
    long dropped;
    long sentBytes;
    int count = 1;
    boolean outstanding;
    private int generation;
    private Outcome notSent;
    /** The window's list of outstanding requests, by deadline. */
    InFlightRequest prev;
    InFlightRequest next;

    /** When it was sent, on {@link System#nanoTime()}'s clock. */
    public final long sendNanos() {
        return sendNanos;
    }

    /** When it times out without a reply. */
    public final long deadlineNanos() {
        return deadlineNanos;
    }

    /** Bytes it put on the wire so far (the transport counts them). */
    public final long sentBytes() {
        return sentBytes;
    }

    public final void sentBytes(long bytes) {
        this.sentBytes = bytes;
    }

    /** What the request stands for in the results (a write of 25 points counts 25); 1 unless set. */
    public final int count() {
        return count;
    }

    /** Sets what the request counts as; the sampler's preparer calls it, before the send. */
    public final void count(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a request counts at least 1, got " + count);
        }
        this.count = count;
    }

    /**
     * Ends this use without sending: the sampler's preparer could not make the request (a bad
     * value, a server known to be out of reach). A {@link CallbackTransport} reports the outcome at
     * once, with {@link #unanswered} as what the row shows.
     */
    public final void notSent(Outcome outcome) {
        this.notSent = outcome;
    }

    /** Why this use is not sent, or null. */
    public final Outcome notSent() {
        return notSent;
    }

    /** Whether it is sent and not yet answered, timed out or cancelled. */
    public final boolean outstanding() {
        return outstanding;
    }

    /** Which use of this place it is; changes each time the place is reused. */
    public final int generation() {
        return generation;
    }

    /**
     * What the sampler may show of this request when it ends without a reply (timed out,
     * cancelled), or null: its command, its label. Asked right before the place is reused.
     */
    protected Object unanswered() {
        return null;
    }

    void reuse() {
        generation++;
        intendedNanos = Completion.UNSCHEDULED;
        dropped = 0;
        sentBytes = 0;
        count = 1;
        notSent = null;
        prev = null;
        next = null;
    }
}
