package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.report.LabelStats;

/**
 * When an arrival schedule meant the next sample of this thread to start. An arrival element
 * (a timer, so it runs right before the sampler) leaves a {@link Stamp} here; the sampler's
 * {@link SampleTiming}, or the arrival element itself for samplers that are not dsload's, turns
 * it into the intended-start delay of the {@code dsload_timing} value. Latency measured from the
 * intended start is what a user of an open system sees when the server (or the generator) falls
 * behind; latency measured from the actual start hides that wait (coordinated omission).
 */
public final class IntendedStart {
    private static final ThreadLocal<Stamp> CURRENT = new ThreadLocal<>();

    private IntendedStart() {
    }

    /**
     * @param sampler             the sampler the stamp is for; another sampler of the thread ignores it
     * @param intendedNanos the intended start on {@link System#nanoTime()}'s clock
     * @param dropped       arrivals skipped since the previous stamp, to be counted with this sample
     */
    public record Stamp(Sampler sampler, long intendedNanos, long dropped) {

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

    /** Counts a sample's start delay in the generator's own figures. */
    public static void record(long delayMicros) {
        if (delayMicros > LabelStats.DEFAULT_LATE_MICROS) {
            GeneratorMetrics.arrivalLate();
        }
    }
}
