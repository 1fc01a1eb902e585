package org.dsload.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.dsload.core.IntervalBuffer;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;

/**
 * The latency histogram of the endpoint, one series per label and engine, and the merged histogram
 * of the live line, both kept in HdrHistogram: a request costs one wait-free recording into its
 * thread's recorder of the series (and one add to its sum), and an aggregate row of histograms mode one recording
 * per distinct value, not per request. A scrape or a live line drains every recorder into the live
 * line's interval and into its series' total, which counts them at once in the buckets a scrape serves
 * ({@link Buckets}); a scrape turns each total into the Prometheus client's histogram snapshot:
 * classic buckets on {@link LiveMetrics#BOUNDS} and a native histogram
 * (the highest schema, from 5 down, that keeps it within {@value #MOST_NATIVE_BUCKETS} buckets, as the
 * client's own histogram does). Values are HdrHistogram's at 3 significant digits: a request lands in
 * the bucket of its latency to within 0.1 %.
 */
final class LatencyHistograms implements Collector {
    /** The most native buckets a series is served with (the Prometheus client's default). */
    static final int MOST_NATIVE_BUCKETS = 160;
    private static final int HIGHEST_SCHEMA = 5;
    /** Threads of a series that get a recorder of their own. */
    static final int OWN_WRITERS = 4;
    /** Native buckets for values of zero only (a latency is never negative). */
    private static final double ZERO_THRESHOLD = Math.pow(2, -128);
    private static final double[] UPPER_BOUNDS = withInfinity(LiveMetrics.BOUNDS);

    private final List<Series> all = new CopyOnWriteArrayList<>();
    /** Every engine's requests since the live line's last interval (guarded by this). */
    private final Histogram pending;

    /**
     * The latencies of one label on one engine. Each of the first {@value #OWN_WRITERS} threads that
     * record into it gets histograms of its own (a single writer's: no atomic operation shared with
     * another thread, which on two busy cores costs more than the recording); further threads (a plan
     * of many blocking threads, each recording seldom) share concurrent ones. A thread records inside
     * a critical section of its {@link IntervalBuffer} (two atomic increments, for a row of requests as
     * for one), which the drain swaps.
     */
    final class Series {
        final Labels labels;
        /**
         * The threads with histograms of their own, the first {@link #owned} filled; a thread finds
         * its own by a scan of at most {@value #OWN_WRITERS} references, not through a thread-local (a
         * lookup in a JMeter thread's crowded map, several probes).
         */
        private final Own[] own = new Own[OWN_WRITERS];
        /** Entries of {@link #own} filled (written under this series' lock, after the entry). */
        private volatile int owned;
        /** The histograms of the threads beyond the first {@value #OWN_WRITERS} (set under this series' lock). */
        private volatile IntervalBuffer<Histogram> shared;
        private final LongAdder sumMicros = new LongAdder();
        /** Every request of this series drained so far, in the buckets a scrape serves (guarded by the outer lock). */
        private final Buckets total = new Buckets();

        Series(String label, String engine) {
            labels = Labels.of("engine", engine, "label", label);
        }

        /** {@code count} requests of {@code micros} each (at most the highest value kept). */
        void record(long micros, long count) {
            IntervalBuffer<Histogram> buffer = recorder();
            long entered = buffer.enter();
            try {
                buffer.active().recordValueWithCount(micros, count);
            } finally {
                buffer.exit(entered);
            }
            sumMicros.add(micros * count);
        }

        /**
         * This thread's histograms, for a caller that records several requests in one critical section
         * and adds their sum.
         */
        IntervalBuffer<Histogram> recorder() {
            Thread me = Thread.currentThread();
            int n = owned;
            for (int i = 0; i < n; i++) {
                if (own[i].thread() == me) {
                    return own[i].histograms();
                }
            }
            IntervalBuffer<Histogram> s = n == OWN_WRITERS ? shared : null;
            return s != null ? s : writerOf(me);
        }

        /** Adds the sum of requests recorded through {@link #recorder()}. */
        void addSum(long micros) {
            sumMicros.add(micros);
        }

        private synchronized IntervalBuffer<Histogram> writerOf(Thread me) {
            int n = owned;
            if (n < OWN_WRITERS) {
                own[n] = new Own(me, new IntervalBuffer<>(new Histogram(3), new Histogram(3), Histogram::reset));
                owned = n + 1;
                return own[n].histograms();
            }
            if (shared == null) {
                shared = new IntervalBuffer<>(new ConcurrentHistogram(3), new ConcurrentHistogram(3), Histogram::reset);
            }
            return shared;
        }

        /** Moves what every writer took since the last drain into {@code into} and this series' total. */
        void drainInto(Histogram into) {
            int n = owned;
            for (int i = 0; i < n; i++) {
                add(own[i].histograms().swap(), into);
            }
            IntervalBuffer<Histogram> s = shared;
            if (s != null) {
                add(s.swap(), into);
            }
        }

        private void add(Histogram interval, Histogram into) {
            total.add(interval);
            into.add(interval);
        }
    }

    /** A thread of a series with histograms of its own. */
    private record Own(Thread thread, IntervalBuffer<Histogram> histograms) {
    }

    LatencyHistograms(long highestMicros) {
        this.pending = new Histogram(highestMicros, 3);
    }

    Series series(String label, String engine) {
        Series s = new Series(label, engine);
        all.add(s);
        return s;
    }

    /** Moves what every recorder took since the last drain into its series' total and the live line's interval. */
    private synchronized void drain() {
        for (Series s : all) {
            s.drainInto(pending);
        }
    }

    /** Every engine's requests since the last call, merged: the live line's interval. */
    synchronized Histogram takeInterval() {
        drain();
        Histogram copy = pending.copy();
        pending.reset();
        return copy;
    }

    @Override
    public MetricSnapshot collect() {
        List<HistogramDataPointSnapshot> points = new ArrayList<>();
        synchronized (this) {
            drain();
            for (Series s : all) {
                points.add(s.total.point(s.labels, s.sumMicros.sum()));
            }
        }
        return new HistogramSnapshot(new MetricMetadata(LiveMetrics.LATENCY,
                "Latency of each request (from its send, or its intended start under an arrival schedule,"
                        + " to its reply), by label and engine"), points);
    }

    @Override
    public String getPrometheusName() {
        return LiveMetrics.LATENCY;
    }

    @Override
    public MetricType getMetricType() {
        return MetricType.HISTOGRAM;
    }

    @Override
    public Set<String> getLabelNames() {
        return Set.of("label", "engine");
    }

    /** One histogram's requests as the client's snapshot: classic and native buckets of the same requests. */
    static HistogramDataPointSnapshot point(Labels labels, Histogram micros, long sumMicros) {
        Buckets b = new Buckets();
        b.add(micros);
        return b.point(labels, sumMicros);
    }

    /**
     * The requests of a series since the run began, counted in the buckets a scrape serves: classic ones on
     * {@link LiveMetrics#BOUNDS} and native ones at the highest schema. A drain adds each interval's distinct
     * values (a second's worth, a few hundred to a few thousand) into them, so that a scrape reads two
     * arrays of a few hundred counts instead of walking a histogram of every latency since the start.
     */
    static final class Buckets {
        private final long[] classic = new long[UPPER_BOUNDS.length];
        private long zeros;
        /** Native bucket counts at {@value #HIGHEST_SCHEMA}, index {@code i} at {@code i - offset}. */
        private long[] positive = new long[0];
        private int offset;

        /** Adds every request of the histogram. */
        void add(Histogram micros) {
            if (micros.getTotalCount() == 0) {
                return;
            }
            for (HistogramIterationValue v : micros.recordedValues()) {
                long value = v.getValueIteratedTo();
                long count = v.getCountAtValueIteratedTo();
                double seconds = value / 1e6;
                classic[classicIndex(seconds)] += count;
                if (value == 0) {
                    zeros += count;
                } else {
                    int at = slot((int) nativeIndex(seconds, HIGHEST_SCHEMA));
                    positive[at] += count;
                }
            }
        }

        /** The slot of native index {@code i}, the array grown to hold it. */
        private int slot(int i) {
            int at = i + offset;
            if (at >= 0 && at < positive.length) {
                return at;
            }
            if (positive.length == 0) {
                // 1 µs to an hour at schema 5 is some 1,000 buckets: room for the usual range at once
                offset = -i + 640;
                positive = new long[1_100];
                return i + offset;
            }
            int lowest = Math.min(i, -offset);
            int highest = Math.max(i, positive.length - 1 - offset);
            long[] grown = new long[highest - lowest + 1 + 64];
            int newOffset = -lowest + 32;
            System.arraycopy(positive, 0, grown, newOffset - offset, positive.length);
            positive = grown;
            offset = newOffset;
            return i + offset;
        }

        HistogramDataPointSnapshot point(Labels labels, long sumMicros) {
            int used = 0;
            for (long c : positive) {
                if (c != 0) {
                    used++;
                }
            }
            int[] indexes = new int[used];
            long[] counts = new long[used];
            int n = 0;
            for (int at = 0; at < positive.length; at++) {
                if (positive[at] != 0) {
                    indexes[n] = at - offset;
                    counts[n++] = positive[at];
                }
            }
            int schema = HIGHEST_SCHEMA;
            while (n > MOST_NATIVE_BUCKETS && schema > -4) {
                schema--;
                n = halve(indexes, counts, n);
            }
            return HistogramDataPointSnapshot.builder().labels(labels).sum(sumMicros / 1e6)
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(UPPER_BOUNDS, classic.clone()))
                    .nativeSchema(schema).nativeZeroThreshold(ZERO_THRESHOLD).nativeZeroCount(zeros)
                    .nativeBucketsForPositiveValues(NativeHistogramBuckets.of(Arrays.copyOf(indexes, n),
                            Arrays.copyOf(counts, n)))
                    .build();
        }
    }

    /**
     * The first {@code n} ascending native indexes and their counts one schema lower (each bucket merged with
     * its neighbour), in place; returns how many remain.
     */
    private static int halve(int[] indexes, long[] counts, int n) {
        int m = 0;
        for (int k = 0; k < n; k++) {
            int i = Math.floorDiv(indexes[k] + 1, 2);
            if (m > 0 && indexes[m - 1] == i) {
                counts[m - 1] += counts[k];
            } else {
                indexes[m] = i;
                counts[m++] = counts[k];
            }
        }
        return m;
    }

    /** The first classic bucket whose upper bound the value does not pass. */
    static int classicIndex(double seconds) {
        int i = Arrays.binarySearch(UPPER_BOUNDS, seconds);
        return i >= 0 ? i : -i - 1;
    }

    /** The native bucket of a value above 0 at a schema: bucket i holds (base^(i-1), base^i], base = 2^(2^-schema). */
    static long nativeIndex(double value, int schema) {
        return (long) Math.ceil(Math.log(value) / Math.log(2) * Math.pow(2, schema));
    }

    private static double[] withInfinity(double[] bounds) {
        double[] b = Arrays.copyOf(bounds, bounds.length + 1);
        b[bounds.length] = Double.POSITIVE_INFINITY;
        return b;
    }
}
