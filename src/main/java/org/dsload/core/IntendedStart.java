package org.dsload.core;

import java.util.concurrent.locks.LockSupport;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.TimingValue;

/**
 * When an arrival schedule meant the next sample of this thread to start. An arrival element
 * (a timer, so it runs right before the sampler) leaves a {@link Stamp} here; the sampler's
 * {@link SampleTiming}, or the arrival element itself for samplers that are not dsload's, turns
 * it into the intended-start delay of the {@code dsload_timing} value. Latency measured from the
 * intended start is what a user of an open system sees when the server (or the generator) falls
 * behind; latency measured from the actual start hides that wait (coordinated omission).
 *
 * <p>A {@link SelfPaced} sampler is offered the schedule itself ({@link #offer}) instead: it takes
 * its arrivals and waits for each to the microsecond, where a timer can only make JMeter sleep in
 * whole milliseconds.
 */
public final class IntendedStart {
    private static final ThreadLocal<Stamp> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<Offer> OFFERED = new ThreadLocal<>();

    /**
     * A dsload sampler that takes its arrivals from an offered {@link ArrivalSource} and waits for
     * each one's intended start itself ({@link PreciseWait}). Arrival elements check for it on the
     * sampler about to run; JMeter's own samplers keep the timer's delay.
     */
    public interface SelfPaced extends Sampler {
    }

    private record Offer(Sampler sampler, ArrivalSource source) {
    }

    private IntendedStart() {
    }

    /**
     * @param sampler             the sampler the stamp is for; another sampler of the thread ignores it
     * @param intendedNanos the intended start on {@link System#nanoTime()}'s clock
     * @param dropped       arrivals skipped since the previous stamp, to be counted with this sample
     * @param warmUp        the arrival is of its schedule's warm-up: the sample's label gets
     *                      {@link JtlColumns#WARM_UP_SUFFIX}
     */
    public record Stamp(Sampler sampler, long intendedNanos, long dropped, boolean warmUp) {

        public Stamp(Sampler sampler, long intendedNanos, long dropped) {
            this(sampler, intendedNanos, dropped, false);
        }

        /** Labels the sample of a warm-up arrival as the warm-up's, once. */
        public void label(SampleResult result) {
            if (warmUp && !result.getSampleLabel().endsWith(JtlColumns.WARM_UP_SUFFIX)) {
                result.setSampleLabel(result.getSampleLabel() + JtlColumns.WARM_UP_SUFFIX);
            }
        }

        /** Delay of a start taken on the nanoTime clock (dsload samplers). */
        public long delayMicros(long startNanos) {
            return Math.max(0, (startNanos - intendedNanos) / 1000);
        }

        /**
         * Delay of a sample known only by JMeter's start time (JMeter's own samplers): the start is
         * placed on the nanoTime clock through the result's own clock, which JMeter derives from it.
         */
        public long delayMicros(SampleResult result) {
            long nowNanos = System.nanoTime();
            long sinceStartMillis = result.currentTimeInMillis() - result.getStartTime();
            return delayMicros(nowNanos - sinceStartMillis * 1_000_000);
        }
    }

    /** An instant in epoch milliseconds on the nanoTime clock. */
    public static long nanosOfEpochMillis(long epochMillis) {
        return System.nanoTime() - (System.currentTimeMillis() - epochMillis) * 1_000_000;
    }

    /** The intended start of the sampler about to run in this thread. */
    public static void set(Stamp stamp) {
        CURRENT.set(stamp);
    }

    /**
     * Removes and returns the stamp left for the sampler this thread is running, or null when
     * there is none (no schedule, or a stamp left for another sampler).
     */
    public static Stamp take() {
        Stamp stamp = CURRENT.get();
        if (stamp == null) {
            return null;
        }
        CURRENT.remove();
        Sampler running = JMeterContextService.getContext().getCurrentSampler();
        return stamp.sampler() == running ? stamp : null;
    }

    /** Offers the schedule to the {@link SelfPaced} sampler about to run in this thread. */
    public static void offer(Sampler sampler, ArrivalSource source) {
        OFFERED.set(new Offer(sampler, source));
    }

    /**
     * Removes and returns the schedule offered to this sampler right before its sample, or null
     * when there is none (no arrival element in its scope, or an offer left for another sampler).
     */
    public static ArrivalSource takeOffer(Sampler sampler) {
        Offer offer = OFFERED.get();
        if (offer == null) {
            return null;
        }
        OFFERED.remove();
        return offer.sampler() == sampler ? offer.source() : null;
    }

    /**
     * What a {@link SelfPaced} sampler that sends one request per sample does first: takes the next
     * offered arrival, waits for its intended start, and leaves its {@link Stamp} for
     * {@link SampleTiming}. Without an offer it returns at once.
     *
     * @return false when the sample must not run: the schedule has no arrival left before the
     *         thread's end (this waits until that end, so that JMeter ends the thread), or the
     *         thread was interrupted while waiting
     */
    public static boolean awaitOffered(Sampler sampler) {
        return awaitOffered(sampler, 0);
    }

    /**
     * {@link #awaitOffered(Sampler)} after a pause of the sampler's own (a back-off while the store
     * could not be reached): the arrivals that fell due before {@code dropBeforeNanos} and that no
     * thread took are dropped ({@link ArrivalSource#dropUntil}), counted with this sample, rather
     * than sent late in a burst.
     *
     * @param dropBeforeNanos on {@link System#nanoTime()}'s clock; 0 for none
     */
    public static boolean awaitOffered(Sampler sampler, long dropBeforeNanos) {
        ArrivalSource source = takeOffer(sampler);
        if (source == null) {
            return true;
        }
        long skipped = dropBeforeNanos == 0 ? 0 : source.dropUntil(dropBeforeNanos);
        ArrivalSource.Arrival arrival = source.take(System.nanoTime());
        if (arrival == null) {
            long end = threadEndNanos();
            while (end != Long.MAX_VALUE && !Thread.currentThread().isInterrupted() && end - System.nanoTime() > 0) {
                LockSupport.parkNanos(end - System.nanoTime());
            }
            return false;
        }
        if (!arrival.scheduled()) {
            return true;
        }
        if (!PreciseWait.until(arrival.intendedNanos())) {
            return false;
        }
        set(new Stamp(sampler, arrival.intendedNanos(), arrival.dropped() + skipped,
                ArrivalSource.warmUp(arrival.intendedNanos(), source.measuredFromNanos())));
        return true;
    }

    /**
     * When JMeter ends this thread (its thread group's duration), on the nanoTime clock, or
     * {@link Long#MAX_VALUE} when the thread has no end time.
     */
    public static long threadEndNanos() {
        JMeterContext context = JMeterContextService.getContext();
        long endMillis = context.getThread() == null ? 0 : context.getThread().getEndTime();
        return endMillis > 0 ? nanosOfEpochMillis(endMillis) : Long.MAX_VALUE;
    }

    /** Counts a sample's start delay in the generator's own figures. */
    public static void record(long delayMicros) {
        if (delayMicros > TimingValue.DEFAULT_LATE_MICROS) {
            GeneratorMetrics.arrivalLate();
        }
    }
}
