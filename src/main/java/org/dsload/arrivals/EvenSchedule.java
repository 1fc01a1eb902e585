package org.dsload.arrivals;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.dsload.core.ArrivalSource;
import org.dsload.core.GeneratorMetrics;

/**
 * Arrival slots at a constant rate, shared by the threads of one thread group: slot n is due
 * at {@code origin + n / rate}. A thread takes the next slot whether or not it is already past
 * (a late arrival, whose wait counts in its corrected latency) unless the slot is older than the
 * drop limit: then the thread skips to the oldest slot within the limit, and the skipped slots
 * are dropped arrivals. Times are on {@link System#nanoTime()}'s clock.
 *
 * <p>A thread that cannot send (a back-off while its store cannot be reached) skips the slots that
 * fall due meanwhile ({@link #skipUntil}), and drops them. A slot due before the schedule's end that
 * no thread took is missed ({@link #untakenAtEnd}: every thread was busy). So is a slot of its own
 * warm-up that no thread took before the warm-up's end: threads behind the schedule then go on with the
 * measured window's first slot, as they would with a measured thread group of its own.
 */
final class EvenSchedule {
    /**
     * The slots from {@code firstIndex} on: after a ramp of {@code rampNanos} whose rate rises evenly from 0 to the
     * segment's (slot n of the ramp due at {@code originNanos + rampNanos * sqrt(n / rampSlots)}, rampSlots being
     * the arrivals of the ramp, half those of as long at the full rate), slot n is due at {@code originNanos +
     * rampNanos + (n - firstIndex - rampSlots) * intervalNanos}. Without a ramp, every {@code intervalNanos} from
     * the origin. A new rate starts a new one, without a ramp ({@link #rebase}).
     */
    private record Segment(long originNanos, double intervalNanos, long firstIndex, long rampNanos) {
        /** The arrivals of the ramp. */
        double rampSlots() {
            return rampNanos / (2 * intervalNanos);
        }

        long dueNanos(long index) {
            double n = index - firstIndex;
            double rampSlots = rampSlots();
            if (n < rampSlots) {
                return originNanos + Math.round(rampNanos * Math.sqrt(n / rampSlots));
            }
            return originNanos + Math.round(rampNanos + (n - rampSlots) * intervalNanos);
        }

        /** The first index due at or after {@code nanos}, give or take one of rounding (the inverse of dueNanos). */
        long firstIndexFrom(long nanos) {
            double t = nanos - originNanos;
            if (t <= 0) {
                return firstIndex;
            }
            double rampSlots = rampSlots();
            double n = t < rampNanos ? rampSlots * (t / rampNanos) * (t / rampNanos) : rampSlots + (t - rampNanos) / intervalNanos;
            return firstIndex + (long) Math.ceil(n);
        }
    }

    private final AtomicReference<Segment> segment;
    private final long dropAfterNanos;
    private final AtomicLong next = new AtomicLong();
    /** The latest end of the threads that take slots ({@link Long#MAX_VALUE}: one has none). */
    private final AtomicLong threadsEnd = new AtomicLong(Long.MIN_VALUE);
    /** When the last of those threads finished. */
    private final AtomicLong lastFinished = new AtomicLong(Long.MIN_VALUE);
    /** Its slots are taken for a plan's warm-up: its drops and misses are counted apart. */
    private volatile boolean warmUp;
    /**
     * Where its measured window starts: its own warm-up's length after it was made, a start moved by
     * {@link #startAt} left out (the warm-up takes a first thread's time opening its connections, and the
     * measured window keeps its length up to the threads' end); {@link ArrivalSource#NO_WARM_UP} without one.
     */
    private final long measuredFrom;

    /** A slot taken by a thread, and how many older slots it skipped. */
    record Slot(long index, long dueNanos, long dropped) {
    }

    /** The schedule's arrivals per second at {@code nowNanos}: during a ramp, the share of the full rate it has reached. */
    double perSecond(long nowNanos) {
        Segment s = segment.get();
        double full = 1e9 / s.intervalNanos();
        long into = nowNanos - s.originNanos();
        return into >= 0 && into < s.rampNanos() ? full * into / s.rampNanos() : full;
    }

    /**
     * A new rate from now on: the slots not yet taken are due from {@code nowNanos} (or from the next
     * slot's time, when that is still to come) at the new rate. Slots of the old rate that were overdue
     * are forgotten rather than sent as a burst of late arrivals at the new one: a changed rate starts
     * with its schedule. Several threads may see the change at once; the first one rebases.
     */
    void rebase(long nowNanos, double ratePerSecond) {
        double interval = 1e9 / ratePerSecond;
        while (true) {
            Segment s = segment.get();
            if (s.intervalNanos() == interval) {
                return;
            }
            long first = next.get();
            long due = s.dueNanos(first);
            Segment rebased = new Segment(due - nowNanos > 0 ? due : nowNanos, interval, first, 0);
            if (segment.compareAndSet(s, rebased)) {
                return;
            }
        }
    }

    /**
     * Moves the schedule's start to {@code nowNanos} while none of its slots has been taken: the first thread
     * to take one was getting ready (opening its connections) since the schedule was made. A slot taken
     * meanwhile by another thread keeps the start where it was.
     */
    void startAt(long nowNanos) {
        Segment s = segment.get();
        if (next.get() == 0 && s.firstIndex() == 0 && nowNanos - s.originNanos() > 0) {
            segment.compareAndSet(s, new Segment(nowNanos, s.intervalNanos(), 0, s.rampNanos()));
        }
    }

    /**
     * Where the measured window starts, on the nanoTime clock: slots due before it are the warm-up's;
     * {@link ArrivalSource#NO_WARM_UP} for a schedule without a warm-up of its own.
     */
    long measuredFromNanos() {
        return measuredFrom;
    }

    /** Whether what happens at {@code nanos} (a drop, a miss) counts with a warm-up. */
    private boolean warmUpAt(long nanos) {
        return warmUp || ArrivalSource.warmUp(nanos, measuredFrom);
    }

    /**
     * Whether threads take its slots at {@code nowNanos}: one has taken a slot and the latest end
     * of its threads is still to come (without an end, until one of them finished).
     */
    boolean active(long nowNanos) {
        long ends = threadsEnd.get();
        return ends != Long.MIN_VALUE && nowNanos < ends && (ends != Long.MAX_VALUE || lastFinished.get() == Long.MIN_VALUE);
    }

    /**
     * @param ratePerSecond  arrivals per second, more than 0
     * @param dropAfterNanos how late a slot may be and still be sent; 0 sends every slot
     */
    EvenSchedule(long originNanos, double ratePerSecond, long dropAfterNanos) {
        this(originNanos, ratePerSecond, 0, dropAfterNanos);
    }

    /**
     * @param rampNanos how long the rate takes to rise evenly from 0 to {@code ratePerSecond}; 0: no ramp
     */
    EvenSchedule(long originNanos, double ratePerSecond, long rampNanos, long dropAfterNanos) {
        this(originNanos, ratePerSecond, rampNanos, dropAfterNanos, 0);
    }

    /**
     * @param warmUpNanos how long its first slots are a warm-up (their samples labelled as the warm-up's,
     *                    their drops and misses counted apart), from {@code originNanos}; 0: none
     */
    EvenSchedule(long originNanos, double ratePerSecond, long rampNanos, long dropAfterNanos, long warmUpNanos) {
        this.segment = new AtomicReference<>(new Segment(originNanos, 1e9 / ratePerSecond, 0, Math.max(0, rampNanos)));
        this.dropAfterNanos = dropAfterNanos;
        this.measuredFrom = warmUpNanos > 0 ? originNanos + warmUpNanos : ArrivalSource.NO_WARM_UP;
    }

    long dueNanos(long index) {
        return segment.get().dueNanos(index);
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
            Segment s = segment.get();
            long first = next.get();
            long start = first;
            if (measuredFrom != ArrivalSource.NO_WARM_UP && nowNanos - measuredFrom >= 0
                    && s.dueNanos(first) - measuredFrom < 0) {
                // the warm-up is over: its slots no thread took are missed, not carried into the measured window
                start = Math.max(first, firstDueFrom(s, measuredFrom));
            }
            long index = start;
            if (dropAfterNanos > 0 && nowNanos - s.dueNanos(start) > dropAfterNanos) {
                index = Math.max(start, firstDueFrom(s, nowNanos - dropAfterNanos));
            }
            if (limitNanos != Long.MAX_VALUE && s.dueNanos(index) - limitNanos >= 0) {
                return null;
            }
            if (next.compareAndSet(first, index + 1)) {
                if (start > first) {
                    GeneratorMetrics.arrivalsMissed(start - first, true);
                }
                return new Slot(index, s.dueNanos(index), index - start);
            }
        }
    }

    /** The first slot due at or after {@code nanos}. */
    private long firstDueFrom(long nanos) {
        return firstDueFrom(segment.get(), nanos);
    }

    private static long firstDueFrom(Segment s, long nanos) {
        long index = s.firstIndexFrom(nanos);
        while (index > s.firstIndex() && s.dueNanos(index - 1) - nanos >= 0) {
            index--;
        }
        while (s.dueNanos(index) - nanos < 0) {
            index++;
        }
        return index;
    }

    /**
     * Takes every slot due before {@code untilNanos} and before {@code limitNanos} (the taking
     * thread's end) that no thread has taken, to send none of them.
     *
     * @return how many
     */
    long skipUntil(long untilNanos, long limitNanos) {
        long bound = limitNanos == Long.MAX_VALUE || untilNanos - limitNanos < 0 ? untilNanos : limitNanos;
        long index = firstDueFrom(bound);
        while (true) {
            long first = next.get();
            if (index <= first) {
                return 0;
            }
            if (next.compareAndSet(first, index)) {
                return index - first;
            }
        }
    }

    /** Its slots are taken for a plan's warm-up (samplers whose labels end in {@code " (warm-up)"}). */
    void warmUp() {
        warmUp = true;
    }

    /**
     * Counts slots of this schedule that were dropped, in the generator's figures (a warm-up's apart: those
     * dropped during its own warm-up too).
     */
    void countDropped(long count) {
        if (count > 0) {
            GeneratorMetrics.arrivalsDropped(count, warmUpAt(System.nanoTime()));
        }
    }

    /** Counts the slots due before its end that no thread took ({@link #untakenAtEnd}), a warm-up's apart. */
    void countMissed() {
        long missed = untakenAtEnd();
        if (missed > 0) {
            // they were due at its end: a warm-up's when it ended before its measured window
            GeneratorMetrics.arrivalsMissed(missed, warmUpAt(lastFinished.get()));
        }
    }

    /** A thread takes slots until {@code endNanos} ({@link Long#MAX_VALUE}: no end of its own). */
    void threadTakes(long endNanos) {
        threadsEnd.accumulateAndGet(endNanos, Math::max);
    }

    /** A thread that took slots finished at {@code nowNanos}. */
    void threadFinished(long nowNanos) {
        lastFinished.accumulateAndGet(nowNanos, Math::max);
    }

    /**
     * Once every thread has finished: the slots due before the schedule's end (the threads' end,
     * or when the last of them finished, whichever came first) that no thread took; each is counted
     * once, however often this is asked.
     */
    long untakenAtEnd() {
        long ends = threadsEnd.get();
        long finished = lastFinished.get();
        if (ends == Long.MIN_VALUE || finished == Long.MIN_VALUE) {
            return 0; // no thread took a slot, or none finished: nothing to say
        }
        return skipUntil(finished, ends);
    }
}
