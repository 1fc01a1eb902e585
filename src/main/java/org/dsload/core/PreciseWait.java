package org.dsload.core;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until an instant on {@link System#nanoTime()}'s clock to within a few microseconds. A
 * parked thread wakes late on Linux (the timer slack, 50 µs by default, and the scheduler), a
 * timer's sleep in whole milliseconds up to a millisecond late: both would show as start delay in
 * every request of an arrival schedule. So the thread parks until a margin before the instant and
 * spins for the rest.
 *
 * <p>The margin is learnt from how late parked threads actually wake: it follows the latest wakes
 * quickly upwards and comes down slowly, between {@link #MIN_MARGIN_NANOS} and
 * {@link #MAX_MARGIN_NANOS}. On a quiet machine it settles near the timer slack, so a thread
 * sending 5,000 arrivals a second spins about a third of its time rather than three quarters of
 * it; on a busy one it grows, so the instants are still kept.
 */
public final class PreciseWait {
    /** The least margin: below it a wake's own cost would make the instant late. */
    public static final long MIN_MARGIN_NANOS = 20_000;
    /** The most: a scheduler that is later than this is not worth spinning for. */
    public static final long MAX_MARGIN_NANOS = 300_000;
    private static final long START_MARGIN_NANOS = 150_000;
    /** How fast the estimate comes down after late wakes: 1/64 of the difference per wake. */
    private static final int DECAY_SHIFT = 6;

    /** A high estimate of how late a park wakes; races between threads only blur it, harmlessly. */
    private static volatile long lateEstimate = START_MARGIN_NANOS;

    private PreciseWait() {
    }

    /** How long before an instant parking gives way to spinning, now. */
    public static long marginNanos() {
        long late = lateEstimate;
        return Math.max(MIN_MARGIN_NANOS, Math.min(MAX_MARGIN_NANOS, late + late / 4 + 5_000));
    }

    /**
     * @return true at the instant; false if the thread was interrupted first (the interrupt stays set)
     */
    public static boolean until(long deadlineNanos) {
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            long now = System.nanoTime();
            long left = deadlineNanos - now;
            if (left <= 0) {
                return true;
            }
            long margin = marginNanos();
            if (left > margin) {
                long target = deadlineNanos - margin;
                LockSupport.parkNanos(target - now);
                if (!Thread.currentThread().isInterrupted()) {
                    wokeAfterPark(target);
                }
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Learns from a park that was meant to end at {@code targetNanos} and was not ended early by
     * an unpark or interrupt: how late the thread woke.
     */
    public static void wokeAfterPark(long targetNanos) {
        observeLate(System.nanoTime() - targetNanos);
    }

    /** One wake, {@code late} nanoseconds after its target, into the estimate. */
    static void observeLate(long late) {
        if (late < 0) {
            return; // woken early (spurious): says nothing of the scheduler's lateness
        }
        late = Math.min(late, MAX_MARGIN_NANOS);
        long estimate = lateEstimate;
        lateEstimate = late > estimate ? late : estimate - ((estimate - late) >> DECAY_SHIFT);
    }

    /** Starts learning afresh (for tests). */
    static void reset() {
        lateEstimate = START_MARGIN_NANOS;
    }
}
