package org.dsload.core;

/**
 * Arrivals of an open-model schedule that a {@link IntendedStart.SelfPaced} sampler takes itself,
 * as many as it can send: one for a sampler that sends one request per sample, one for each free
 * place of a sampler that keeps requests in flight. An arrival element offers the source through
 * {@link IntendedStart#offer} right before the sample, instead of taking one arrival and sleeping
 * for it in whole milliseconds.
 */
public interface ArrivalSource {

    /**
     * One arrival: when it is meant to be sent, on {@link System#nanoTime()}'s clock, and the
     * arrivals the schedule dropped just before it (too late to send), counted with it.
     * {@link Completion#UNSCHEDULED} stands for an arrival with no known intended start: it is
     * sent at once and has no corrected latency.
     */
    record Arrival(long intendedNanos, long dropped) {
        public boolean scheduled() {
            return intendedNanos != Completion.UNSCHEDULED;
        }

        /** Whether it is due later than {@code nowNanos}. */
        public boolean dueAfter(long nowNanos) {
            return scheduled() && intendedNanos - nowNanos > 0;
        }
    }

    /** A source of exactly one arrival (a thread of JMeter's Open Model Thread Group is one arrival). */
    static ArrivalSource once(Arrival arrival) {
        return new ArrivalSource() {
            private boolean taken;

            @Override
            public Arrival take(long nowNanos) {
                if (taken) {
                    return null;
                }
                taken = true;
                return arrival;
            }
        };
    }

    /** {@link #measuredFromNanos} of a source without a warm-up. */
    long NO_WARM_UP = Long.MIN_VALUE;

    /**
     * Where the source's measured window starts, on {@link System#nanoTime()}'s clock: arrivals meant
     * to be sent before it are its warm-up's, and their samples carry the label of the sampler with
     * {@link org.dsload.core.format.JtlColumns#WARM_UP_SUFFIX}; {@link #NO_WARM_UP} (the default) when it has none.
     * Asked when a row is made, since the schedule's start may move until its first arrival.
     */
    default long measuredFromNanos() {
        return NO_WARM_UP;
    }

    /** Whether an arrival meant for {@code intendedNanos} is of the warm-up of a source that starts measuring at {@code measuredFromNanos}. */
    static boolean warmUp(long intendedNanos, long measuredFromNanos) {
        return measuredFromNanos != NO_WARM_UP && intendedNanos != Completion.UNSCHEDULED
                && intendedNanos - measuredFromNanos < 0;
    }

    /**
     * The taker is ready to send (its connections are open) at {@code nowNanos}: a schedule none of whose
     * arrivals has been taken yet starts then, so that its first arrivals do not wait on connections being made.
     */
    default void ready(long nowNanos) {
        // a source without a schedule of its own has nothing to move
    }

    /**
     * Takes the next arrival, whether it is due already (late), now or later.
     *
     * @return null when the schedule has no arrival left for this thread (it ends before the next one),
     *         or none for now ({@link #resumesAtNanos})
     */
    Arrival take(long nowNanos);

    /**
     * After {@link #take} returned null: {@link Long#MAX_VALUE} (the default) when the source has
     * ended, else when it may have an arrival again, on {@link System#nanoTime()}'s clock (work handed
     * back to be done later, such as an insert to try again after its interval); the taker asks
     * again then. A source may resume after it ended, when work is handed back to it.
     */
    default long resumesAtNanos() {
        return Long.MAX_VALUE;
    }

    /**
     * Drops the arrivals due before {@code untilNanos} that no thread has taken yet: a thread that
     * could not send them (a back-off while its store cannot be reached) says so, rather than send
     * them all late once it can. The caller counts them with the next arrival it sends, as the
     * schedule's own drops are counted.
     *
     * @return how many were dropped
     */
    default long dropUntil(long untilNanos) {
        return 0;
    }

    /**
     * Counts {@code count} of its arrivals that the taker dropped: taken, and not sent (due while it
     * backed off, or overdue when it ended). A schedule counts its own in the generator's figures (a
     * warm-up's apart).
     */
    default void dropped(long count) {
        GeneratorMetrics.arrivalsDropped(count);
    }
}
