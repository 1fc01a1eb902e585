package org.dsload.kairosdb;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.dsload.report.ExactHistogram;

/**
 * The reference of the KairosDB benchmark, run in a JVM of its own like JMeter: N threads, each
 * one resource, loop {@code POST /api/v1/datapoints} of the same generated batches
 * ({@link WriteBatch}, the defaults of test-plans/kairosdb-write.jmx) over the same client
 * ({@link KairosClient}, pool 200, keep-alive, no gzip). Prints
 * {@code points=<n> seconds=<s> p99us=<µs> failures=<n>} for the window after the warm-up.
 *
 * <p>Arguments: url threads warmupSeconds seconds
 */
public final class PlainKairosLoop {
    private PlainKairosLoop() {
    }

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0].endsWith("/") ? args[0] : args[0] + "/");
        int threads = Integer.parseInt(args[1]);
        long warmupNanos = Long.parseLong(args[2]) * 1_000_000_000L;
        long measureNanos = Long.parseLong(args[3]) * 1_000_000_000L;
        BatchSpec spec = new BatchSpec(SeriesTemplate.compile("dsload.metric.#{m}"),
                List.of(new BatchSpec.Tag(SeriesTemplate.compile("host"), SeriesTemplate.compile("plain-#{thread}"))),
                25, 100, 1, false, 15_000, 0, ValueSpec.parse("random:0-100"), 0);
        KairosClient.ClientSettings settings = new KairosClient.ClientSettings(200, true, false, 2000, 30_000, 10_000);
        AtomicLong points = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        List<ExactHistogram> histograms = new ArrayList<>();
        try (KairosClient client = new KairosClient(List.of(url), settings, "", "")) {
            CountDownLatch go = new CountDownLatch(1);
            long[] clock = new long[1];
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                ExactHistogram h = new ExactHistogram();
                histograms.add(h);
                int thread = t + 1;
                Thread worker = new Thread(() -> {
                    WriteBatch batch = new WriteBatch(spec, thread, "master");
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    long measureFrom = clock[0] + warmupNanos;
                    long end = measureFrom + measureNanos;
                    while (true) {
                        long t0 = System.nanoTime();
                        if (t0 >= end) {
                            break;
                        }
                        WriteBatch.Built built = batch.next(System.currentTimeMillis());
                        int status;
                        try {
                            status = client.post(KairosPaths.DATAPOINTS, built.json(), true, Replies.text(0)).status();
                        } catch (java.io.IOException e) {
                            status = -1;
                        }
                        if (t0 >= measureFrom) {
                            h.record((System.nanoTime() - t0) / 1000);
                            if (status == 204) {
                                points.addAndGet(built.points());
                            } else {
                                failures.incrementAndGet();
                            }
                        }
                    }
                }, "plain-" + thread);
                workers.add(worker);
                worker.start();
            }
            clock[0] = System.nanoTime();
            go.countDown();
            for (Thread w : workers) {
                w.join();
            }
        }
        ExactHistogram all = new ExactHistogram();
        histograms.forEach(all::merge);
        System.out.printf("points=%d seconds=%.3f p99us=%d failures=%d%n", points.get(), measureNanos / 1e9,
                all.percentile(99), failures.get());
    }
}
