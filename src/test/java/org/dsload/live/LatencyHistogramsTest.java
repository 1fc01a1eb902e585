package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.HdrHistogram.Histogram;
import org.dsload.core.IntervalBuffer;
import org.junit.jupiter.api.Test;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBucket;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBucket;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;

/** The endpoint's latency histogram built from HdrHistogram: classic and native buckets of the same requests. */
class LatencyHistogramsTest {
    private static final long HOUR_MICROS = 3_600_000_000L;

    @Test
    void aNativeBucketHoldsTheValuesAboveItsLowerAndUpToItsUpperBound() {
        for (int schema = -2; schema <= 5; schema++) {
            double base = Math.pow(2, Math.pow(2, -schema));
            for (double v : new double[] {1e-5, 0.000150, 0.0021, 0.5, 1, 2, 3.7, 60}) {
                long i = LatencyHistograms.nativeIndex(v, schema);
                assertTrue(Math.pow(base, i - 1) < v * (1 + 1e-12) && v <= Math.pow(base, i) * (1 + 1e-12),
                        v + " at schema " + schema + " in bucket " + i);
            }
        }
        assertEquals(0, LatencyHistograms.nativeIndex(1, 0));
        assertEquals(1, LatencyHistograms.nativeIndex(2, 0));
        assertEquals(2, LatencyHistograms.nativeIndex(2.5, 0));
    }

    @Test
    void classicAndNativeBucketsCountEveryRequestAndTheSumIsExact() {
        Histogram h = new Histogram(HOUR_MICROS, 3);
        Random random = new Random(7);
        long sum = 0;
        long n = 0;
        for (int i = 0; i < 20_000; i++) {
            // 8 µs to 10 s: far more distinct latencies than native buckets at schema 5
            long micros = (long) Math.exp(2 + random.nextDouble() * 14);
            h.recordValue(micros);
            sum += micros;
            n++;
        }
        h.recordValueWithCount(0, 3);
        n += 3;
        HistogramDataPointSnapshot p = LatencyHistograms.point(Labels.of("engine", "master", "label", "GET"), h, sum);

        assertEquals(n, p.getCount());
        long classic = 0;
        for (ClassicHistogramBucket b : p.getClassicBuckets()) {
            classic += b.getCount();
        }
        assertEquals(n, classic);
        long nativeCount = p.getNativeZeroCount();
        for (NativeHistogramBucket b : p.getNativeBucketsForPositiveValues()) {
            nativeCount += b.getCount();
        }
        assertEquals(n, nativeCount);
        assertEquals(3, p.getNativeZeroCount());
        assertTrue(p.getNativeBucketsForPositiveValues().size() <= LatencyHistograms.MOST_NATIVE_BUCKETS,
                p.getNativeBucketsForPositiveValues().size() + " buckets");
        assertTrue(p.getNativeSchema() < 5 && p.getNativeSchema() >= 0, "schema " + p.getNativeSchema());
        assertEquals(sum / 1e6, p.getSum(), 1e-9);
    }

    @Test
    void threadsWithRecordersOfTheirOwnAndThreadsSharingOneLoseNoRequestWhileScrapesDrainThem() throws Exception {
        LatencyHistograms histograms = new LatencyHistograms(HOUR_MICROS);
        LatencyHistograms.Series series = histograms.series("GET", "master");
        int threads = LatencyHistograms.OWN_WRITERS + 3;
        int each = 50_000;
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<Thread> writers = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long micros = 100 + t;
            Thread w = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    if (i % 2 == 0) {
                        series.record(micros, 1);
                    } else {
                        // a row of two requests, recorded in one critical section
                        IntervalBuffer<Histogram> row = series.recorder();
                        long entered = row.enter();
                        try {
                            row.active().recordValueWithCount(micros, 1);
                            row.active().recordValueWithCount(micros, 1);
                        } finally {
                            row.exit(entered);
                        }
                        series.addSum(2 * micros);
                    }
                }
            });
            w.start();
            writers.add(w);
        }
        go.countDown();
        long live = 0;
        // scrapes and live lines drain the recorders while the threads record
        while (writers.stream().anyMatch(Thread::isAlive)) {
            live += histograms.takeInterval().getTotalCount();
            histograms.collect();
        }
        live += histograms.takeInterval().getTotalCount();
        long expected = (long) threads * each / 2 * 3;
        HistogramDataPointSnapshot p = ((HistogramSnapshot) histograms.collect()).getDataPoints().get(0);
        assertEquals(expected, p.getCount(), "the scrape's count: every request of every thread");
        assertEquals(expected, live, "the live line's intervals, added up");
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            sum += (100L + t) * each / 2 * 3;
        }
        assertEquals(sum / 1e6, p.getSum(), 1e-9);
    }

    @Test
    void aNarrowSpreadKeepsTheFinestSchemaAndTheProtobufFormatCarriesIt() {
        LatencyHistograms histograms = new LatencyHistograms(HOUR_MICROS);
        LatencyHistograms.Series get = histograms.series("GET", "master");
        get.record(150, 4);
        get.record(220, 1);
        get.record(1_900, 2);
        HistogramSnapshot snapshot = (HistogramSnapshot) histograms.collect();
        HistogramDataPointSnapshot p = snapshot.getDataPoints().get(0);
        assertEquals(5, p.getNativeSchema());
        assertEquals(7, p.getCount());
        assertEquals((4 * 150 + 220 + 2 * 1_900) / 1e6, p.getSum(), 1e-12);

        String debug = new PrometheusProtobufWriter().toDebugString(MetricSnapshots.of(snapshot),
                EscapingScheme.ALLOW_UTF8);
        assertTrue(debug.contains("schema: 5"), debug);
        assertTrue(debug.contains("positive_span"), debug);
        // the live line's interval got the same requests, once
        assertEquals(7, histograms.takeInterval().getTotalCount());
        assertEquals(0, histograms.takeInterval().getTotalCount());
        get.record(300, 1);
        assertEquals(1, histograms.takeInterval().getTotalCount());
        assertEquals(8, ((HistogramSnapshot) histograms.collect()).getDataPoints().get(0).getCount());
    }

    @Test
    void bucketsAddedUpScrapeAfterScrapeEqualThoseOfTheWholeRunAtOnce() {
        LatencyHistograms histograms = new LatencyHistograms(HOUR_MICROS);
        LatencyHistograms.Series get = histograms.series("GET", "master");
        Histogram whole = new Histogram(HOUR_MICROS, 3);
        Random random = new Random(11);
        long sum = 0;
        for (int scrape = 0; scrape < 6; scrape++) {
            for (int i = 0; i < 3_000; i++) {
                // later scrapes reach further out: 0 µs to an hour, the buckets' array grown on the way
                long micros = scrape == 0 ? 100 + random.nextInt(50)
                        : Math.min(HOUR_MICROS, (long) Math.exp(random.nextDouble() * (4 + 3.7 * scrape)));
                get.record(micros, 1);
                whole.recordValue(micros);
                sum += micros;
            }
            get.record(0, 1);
            whole.recordValue(0);
            histograms.collect();
        }
        HistogramDataPointSnapshot scraped = ((HistogramSnapshot) histograms.collect()).getDataPoints().get(0);
        HistogramDataPointSnapshot atOnce = LatencyHistograms.point(Labels.of("engine", "master", "label", "GET"), whole, sum);
        assertEquals(atOnce.getCount(), scraped.getCount());
        assertEquals(atOnce.getNativeSchema(), scraped.getNativeSchema());
        assertEquals(atOnce.getNativeZeroCount(), scraped.getNativeZeroCount());
        assertEquals(6, scraped.getNativeZeroCount());
        assertEquals(atOnce.getNativeBucketsForPositiveValues().size(), scraped.getNativeBucketsForPositiveValues().size());
        for (int i = 0; i < atOnce.getNativeBucketsForPositiveValues().size(); i++) {
            NativeHistogramBuckets a = atOnce.getNativeBucketsForPositiveValues();
            NativeHistogramBuckets b = scraped.getNativeBucketsForPositiveValues();
            assertEquals(a.getBucketIndex(i), b.getBucketIndex(i));
            assertEquals(a.getCount(i), b.getCount(i), "native bucket " + a.getBucketIndex(i));
        }
        for (int i = 0; i < atOnce.getClassicBuckets().size(); i++) {
            assertEquals(atOnce.getClassicBuckets().getCount(i), scraped.getClassicBuckets().getCount(i), "classic bucket " + i);
        }
        // a native histogram from 1 µs to an hour at schema 5 is over a thousand buckets: the schema came down
        assertTrue(scraped.getNativeSchema() < 5, "schema " + scraped.getNativeSchema());
    }
}
