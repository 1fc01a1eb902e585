package org.dsload.ycsb;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import org.dsload.core.IntendedStart;
import org.dsload.core.Outcome;
import org.dsload.core.TestStop;
import org.dsload.core.inflight.InFlightWindow;

/**
 * YCSB's insertion retries in the load phase (CoreWorkload's {@code core_workload_insertion_retry_limit}
 * and {@code core_workload_insertion_retry_interval}): a failed insert with retries left is tried
 * again, with the same key and values, after the interval times a random 0.8 to 1.2, as YCSB waits.
 * Each attempt is a sample of its own, as YCSB measures each; a failed one with a retry left is a
 * failed sample that says it will be retried and does not stop the test. YCSB tries a run-phase
 * insert once, and so does dsload.
 */
final class InsertionRetry {
    /** Longest park while waiting for a retry without looking whether the test is stopping. */
    private static final long SLICE_NANOS = 50_000_000L;

    private InsertionRetry() {
    }

    /** Whether the failed attempt is tried again: retries left, and not cancelled by a stopping test. */
    /** A failed insert's next attempt: the insert to send again, when, and what the failed row's message says. */
    record Next(DrawnOperation insert, long dueNanos, String message) {
    }

    /** The next attempt of a failed insert, or null when it has no retry left. */
    static Next next(WorkloadSpec spec, DrawnOperation failed, Outcome outcome) {
        if (!left(spec, failed, outcome)) {
            return null;
        }
        long delay = delayNanos(spec);
        return new Next(failed.retried(), System.nanoTime() + delay, retried(outcome.message(), spec, failed, delay));
    }

    static boolean left(WorkloadSpec spec, DrawnOperation failed, Outcome outcome) {
        return failed.attempt() <= spec.insertionRetryLimit() && !outcome.code().equals(InFlightWindow.CANCELLED);
    }

    /** The wait before the next attempt: the interval times a random 0.8 to 1.2, as YCSB's. */
    static long delayNanos(WorkloadSpec spec) {
        double seconds = spec.insertionRetryInterval() * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble());
        return (long) (seconds * 1e9);
    }

    /** A failed attempt's response message: the store's, then that the insert is tried again. */
    static String retried(String message, WorkloadSpec spec, DrawnOperation failed, long delayNanos) {
        return message + " (attempt " + failed.attempt() + " of " + attempts(spec) + ": the insert is tried again in "
                + String.format(Locale.ROOT, "%.2f", delayNanos / 1e9) + " s)";
    }

    /** The failed insert as the console's line names it: its key, and its attempt when there are retries. */
    static String failedAt(WorkloadSpec spec, DrawnOperation failed) {
        return failed.key() + (spec.insertionRetryLimit() == 0 ? ""
                : " (attempt " + failed.attempt() + " of " + attempts(spec) + ")");
    }

    private static long attempts(WorkloadSpec spec) {
        return spec.insertionRetryLimit() + 1L;
    }

    /**
     * Waits until a retry is due, for a thread that sends one insert at a time.
     *
     * @return false when the wait ended first: the test is stopping, the thread was interrupted, or its end came
     */
    static boolean await(long dueNanos) {
        long end = IntendedStart.threadEndNanos();
        while (true) {
            if (TestStop.stopping() || Thread.currentThread().isInterrupted()) {
                return false;
            }
            long now = System.nanoTime();
            if (now - dueNanos >= 0) {
                return true;
            }
            if (end != Long.MAX_VALUE && now - end >= 0) {
                return false;
            }
            LockSupport.parkNanos(Math.min(dueNanos - now, SLICE_NANOS));
        }
    }
}
