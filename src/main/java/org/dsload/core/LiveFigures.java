package org.dsload.core;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.jmeter.samplers.SampleResult;

/**
 * The requests of this engine's dsload samplers as they end, for what judges the test while it runs
 * (the stop conditions of {@code dsload.stop_when}): their latencies in microseconds and how many
 * failed, taken interval by interval. Warm-up labels (ending in {@value #WARM_UP}) are left out, as
 * the summary leaves them out of the measured window. Nothing is kept unless {@link #enable} was
 * called for the test.
 */
public final class LiveFigures {
    static final String WARM_UP = " (warm-up)";
    /** An hour in microseconds: longer latencies count as an hour. */
    private static final long HIGHEST = 3_600_000_000L;
    private static final ThreadLocal<Timed> LAST = new ThreadLocal<>();

    private static volatile boolean enabled;
    private static final Recorder LATENCIES = new Recorder(HIGHEST, 3);
    private static final LongAdder FAILED = new LongAdder();
    /** Who else gets every completed sample of the engine's dsload samplers, or null. */
    private static volatile Consumer<SampleResult> tap;

    /** The figures of one interval: every request that ended in it. */
    public record Interval(Histogram latencies, long failed) {
        public long requests() {
            return latencies.getTotalCount();
        }
    }

    private record Timed(SampleResult result, long micros) {
    }

    private LiveFigures() {
    }

    /** Starts keeping figures, from nothing; for the test that starts. */
    public static void enable() {
        LATENCIES.reset();
        FAILED.reset();
        enabled = true;
    }

    public static void disable() {
        enabled = false;
    }

    /**
     * Hands every completed sample of this engine's dsload samplers (warm-up ones too) to
     * {@code consumer} on the sampling thread, from now on; null for none. For the live metrics
     * of a run the dsload runner did not start (GUI, Maven), which have no listener in the plan.
     */
    public static void tap(Consumer<SampleResult> consumer) {
        tap = consumer;
    }

    /** The figures since the last call (or {@link #enable}), which start again from nothing. */
    public static Interval take() {
        Histogram h = LATENCIES.getIntervalHistogram();
        return new Interval(h, FAILED.sumThenReset());
    }

    /** A sample's microseconds as {@link SampleTiming} measured them, for {@link #note} on the same thread. */
    static void timed(SampleResult result, long micros) {
        if (enabled) {
            LAST.set(new Timed(result, micros));
        }
    }

    /**
     * A completed sample (or row of requests, each timed on its own) of a dsload sampler: called once
     * for each, by {@link ClientSampler} for the result it returns and for rows handed to the listeners
     * beside it.
     */
    public static void note(SampleResult result) {
        Consumer<SampleResult> t = tap;
        if (t != null) {
            t.accept(result);
        }
        if (!enabled || result.getSampleLabel().endsWith(WARM_UP)) {
            return;
        }
        if (result instanceof RequestsResult row && row.requests() != null) {
            for (Completion c : row.requests()) {
                record(c.elapsedMicros(), c.count(), c.outcome().success());
            }
            return;
        }
        Timed last = LAST.get();
        long micros = last != null && last.result() == result ? last.micros() : result.getTime() * 1000;
        LAST.remove();
        record(micros, 1, result.isSuccessful());
    }

    private static void record(long micros, int count, boolean success) {
        LATENCIES.recordValueWithCount(Math.max(0, Math.min(HIGHEST, micros)), Math.max(1, count));
        if (!success) {
            FAILED.add(Math.max(1, count));
        }
    }
}
