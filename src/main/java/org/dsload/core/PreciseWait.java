package org.dsload.core;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until an instant on {@link System#nanoTime()}'s clock to within a few microseconds. A
 * parked thread wakes 50 to 100 µs late on Linux (the timer slack and the scheduler), a timer's
 * sleep in whole milliseconds up to a millisecond late: both would show as start delay in every
 * request of an arrival schedule. So the thread parks until {@link #SPIN_NANOS} before the
 * instant and spins for the rest, which costs about that much CPU per wait and no more.
 */
public final class PreciseWait {
    /** How long before the instant parking gives way to spinning. */
    public static final long SPIN_NANOS = 150_000;

    private PreciseWait() {
    }

    /**
     * @return true at the instant; false if the thread was interrupted first (the interrupt stays set)
     */
    public static boolean until(long deadlineNanos) {
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            if (left > SPIN_NANOS) {
                LockSupport.parkNanos(left - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
