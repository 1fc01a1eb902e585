package org.dsload.core;

import java.util.concurrent.locks.LockSupport;

/**
 * The pause before a connection is tried again after it could not be made (refused, unreachable,
 * timed out): 10 ms after the first failure, doubling with each failure in a row up to 1 s,
 * nothing once a connection succeeds. A thread looping on a server that is down would otherwise
 * fail as fast as the machine can make refused connections (hundreds of thousands of failed
 * samples a minute, and as many lines in the results file) without telling more than the first
 * one did. Every attempt still counts as a failed request; only the pace of attempts is bounded.
 *
 * <p>One instance per connection (or per thread, for a thread that uses one connection at a
 * time); not thread-safe, except {@link #wake}.
 */
public final class Backoff {
    public static final long FIRST_NANOS = 10_000_000L;
    public static final long MAX_NANOS = 1_000_000_000L;
    /** Longest park of {@link #await} without looking whether the test is stopping. */
    private static final long SLICE_NANOS = 50_000_000L;

    private int failures;
    private long notBeforeNanos;
    private volatile Thread waiter;
    private volatile boolean woken;

    /** A connection attempt failed at {@code nowNanos}: the next waits a longer pause. */
    public void failed(long nowNanos) {
        long pause = failures >= 20 ? MAX_NANOS : Math.min(MAX_NANOS, FIRST_NANOS << failures);
        failures++;
        notBeforeNanos = nowNanos + pause;
    }

    /** A connection was made: no pause before the next. */
    public void succeeded() {
        failures = 0;
        notBeforeNanos = 0;
    }

    /** Failed attempts in a row. */
    public int failures() {
        return failures;
    }

    /** When the next attempt may be made, on {@link System#nanoTime()}'s clock (0: now). */
    public long notBeforeNanos() {
        return notBeforeNanos;
    }

    public boolean waiting(long nowNanos) {
        return failures > 0 && nowNanos - notBeforeNanos < 0;
    }

    /**
     * Waits out the pause, for a thread that makes its connection attempts itself. The wait ends
     * early, with no attempt, at the limit (the thread's end), when the thread is interrupted, when
     * {@link #wake} is called (the sampler's {@code interrupt}: the test is stopped) or when dsload
     * stops the test ({@link TestStop#stopping}), so that a pause never holds a thread past its
     * test.
     *
     * @param limitNanos when to give up waiting (the thread's end), or {@link Long#MAX_VALUE}
     * @return false when the wait ended early: make no attempt
     */
    public boolean await(long limitNanos) {
        woken = false;
        waiter = Thread.currentThread();
        try {
            while (true) {
                if (TestStop.stopping() || woken || Thread.currentThread().isInterrupted()) {
                    return false;
                }
                long now = System.nanoTime();
                if (!waiting(now)) {
                    return true;
                }
                if (limitNanos != Long.MAX_VALUE && now - limitNanos >= 0) {
                    return false;
                }
                long until = limitNanos == Long.MAX_VALUE || notBeforeNanos - limitNanos < 0 ? notBeforeNanos : limitNanos;
                LockSupport.parkNanos(Math.min(until - now, SLICE_NANOS));
            }
        } finally {
            waiter = null;
        }
    }

    /** Ends a wait in {@link #await} at once (it returns false); from any thread. */
    public void wake() {
        woken = true;
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** The pause ahead, in milliseconds, for messages. */
    public long pauseMillis(long nowNanos) {
        return Math.max(0, (notBeforeNanos - nowNanos) / 1_000_000);
    }
}
