package org.dsload.core;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until an instant on {@link System#nanoTime()}'s clock to within a few microseconds. A
 * parked thread wakes late on Linux (the timer slack, 50 µs by default, and the scheduler), a
 * timer's sleep in whole milliseconds up to a millisecond late: both would show as start delay in
 * every request of an arrival schedule. So the thread parks until a margin before the instant and
 * spins for the rest.
 *
 * <p>The margin is learnt from how late parked threads actually wake: an estimate of the 99th
 * percentile of their lateness (a step up of 9.9 µs for each wake later than it, a step down of
 * 0.1 µs for each other one, so one preempted thread moves it by a step only), plus 10 µs, between
 * {@link #MIN_MARGIN_NANOS} and {@link #MAX_MARGIN_NANOS}. On a quiet machine it settles a little
 * above the timer slack, so the thread spins for less than the fixed margin; on a busy one it
 * rises to the most, the fixed margin it replaces: spinning longer cannot beat a scheduler that
 * preempts.
 *
 * <p>A thread's spins take at most a tenth of its time: the margin of a wait is also at most a
 * tenth of the time between this thread's instants (a smoothed estimate), never below the least
 * margin. A thread with an instant every 400 µs (5,000 arrivals/s over two threads) spins at most
 * 40 µs before each instead of up to 150: the cores it leaves go to the server under test when they
 * share a machine, at the price of sends a few tens of microseconds late when a park wakes late.
 */
public final class PreciseWait {
    /** The least margin: below it a wake's own cost would make the instant late. */
    public static final long MIN_MARGIN_NANOS = 20_000;
    /** The most: the fixed margin this wait had before it learnt one. */
    public static final long MAX_MARGIN_NANOS = 150_000;
    private static final long STEP_UP_NANOS = 9_900;
    private static final long STEP_DOWN_NANOS = 100;
    private static final long HEADROOM_NANOS = 10_000;

    /** A thread's spins take at most 1/SPIN_SHARE of the time between its instants. */
    static final int SPIN_SHARE = 10;
    /** The estimate of how late a park wakes; races between threads only blur it, harmlessly. */
    private static volatile long lateEstimate = MAX_MARGIN_NANOS;
    /** Per thread: its last instant, the smoothed time between its instants (0: not known yet), the margin given for it. */
    private static final ThreadLocal<long[]> PACE = ThreadLocal.withInitial(() -> new long[3]);

    private PreciseWait() {
    }

    /** How long before an instant parking gives way to spinning, now. */
    public static long marginNanos() {
        return Math.max(MIN_MARGIN_NANOS, Math.min(MAX_MARGIN_NANOS, lateEstimate + HEADROOM_NANOS));
    }

    /**
     * The margin of this thread's wait for {@code deadlineNanos}: the learnt one, at most a tenth of
     * the time between this thread's instants. Asked again for the same instant (a wait resumed after
     * a reply woke it), it gives the same margin.
     */
    public static long marginNanos(long deadlineNanos) {
        long[] pace = PACE.get();
        if (pace[0] != deadlineNanos || pace[2] == 0) {
            long gap = deadlineNanos - pace[0];
            if (pace[2] != 0 && gap > 0) {
                pace[1] = pace[1] == 0 ? gap : pace[1] + (gap - pace[1]) / 8;
            }
            pace[0] = deadlineNanos;
            long margin = marginNanos();
            pace[2] = pace[1] == 0 ? margin : Math.max(MIN_MARGIN_NANOS, Math.min(margin, pace[1] / SPIN_SHARE));
        }
        return pace[2];
    }

    /**
     * @return true at the instant; false if the thread was interrupted first (the interrupt stays set)
     */
    public static boolean until(long deadlineNanos) {
        long margin = marginNanos(deadlineNanos); // once per wait: the spin below stays a clock read and a compare
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            long now = System.nanoTime();
            long left = deadlineNanos - now;
            if (left <= 0) {
                return true;
            }
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
        long estimate = lateEstimate;
        lateEstimate = late > estimate ? Math.min(MAX_MARGIN_NANOS, estimate + STEP_UP_NANOS)
                : Math.max(0, estimate - STEP_DOWN_NANOS);
    }

    /** Starts learning afresh (for tests). */
    static void reset() {
        lateEstimate = MAX_MARGIN_NANOS;
        PACE.remove();
    }
}
