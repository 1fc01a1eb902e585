package org.dsload.arrivals;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Arrival slots at a constant rate, shared by the threads of one thread group: slot n is due
 * at {@code origin + n / rate}. A thread takes the next slot whether or not it is already past
 * (a late arrival, whose wait counts in its corrected latency) unless the slot is older than the
 * drop limit: then the thread skips to the oldest slot within the limit, and the skipped slots
 * are dropped arrivals. Times are on {@link System#nanoTime()}'s clock.
 */
final class EvenSchedule {
    private final long originNanos;
    private final double intervalNanos;
    private final long dropAfterNanos;
    private final AtomicLong next = new AtomicLong();

    /** A slot taken by a thread, and how many older slots it skipped. */
    record Slot(long index, long dueNanos, long dropped) {
    }

    /**
     * @param ratePerSecond  arrivals per second, more than 0
     * @param dropAfterNanos how late a slot may be and still be sent; 0 sends every slot
     */
    EvenSchedule(long originNanos, double ratePerSecond, long dropAfterNanos) {
        this.originNanos = originNanos;
        this.intervalNanos = 1e9 / ratePerSecond;
        this.dropAfterNanos = dropAfterNanos;
    }

    long dueNanos(long index) {
        return originNanos + Math.round(index * intervalNanos);
    }

    /** When the next slot is due, without taking it. */
    long nextDueNanos() {
        return dueNanos(next.get());
    }

    Slot take(long nowNanos) {
        return takeBefore(nowNanos, Long.MAX_VALUE);
    }

    /**
     * Takes the next slot only if it is due before {@code limitNanos} (the taking thread's end;
     * {@link Long#MAX_VALUE} for none): a slot no thread can send stays for one that can.
     *
     * @return null when the next slot is due at or after the limit
     */
    Slot takeBefore(long nowNanos, long limitNanos) {
        while (true) {
            long first = next.get();
            long index = first;
            if (dropAfterNanos > 0 && nowNanos - dueNanos(first) > dropAfterNanos) {
                long oldestKept = (long) Math.ceil((nowNanos - dropAfterNanos - originNanos) / intervalNanos);
                index = Math.max(first, oldestKept);
            }
            if (limitNanos != Long.MAX_VALUE && dueNanos(index) - limitNanos >= 0) {
                return null;
            }
            if (next.compareAndSet(first, index + 1)) {
                return new Slot(index, dueNanos(index), index - first);
            }
        }
    }
}
