package org.dsload.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import org.dsload.report.ExactHistogram;

/**
 * What every plain reference loop of the benchmarks shares, so that a store's loop is only its
 * request: a warm-up, then a measured window in which each request that starts is counted, timed
 * from its start to its end, and its failure noted. A loop runs in a JVM of its own, like JMeter,
 * and prints {@link Result#line()}, which {@link Bench#plainLoopRow} reads.
 */
public final class PlainLoop {
    private PlainLoop() {
    }

    /** One blocking request, the {@code i}-th of its thread: returns the operations it did; throws when it failed. */
    @FunctionalInterface
    public interface Call {
        long run(long i) throws Exception;
    }

    /** One request sent without waiting, the {@code i}-th of the loop; it calls {@code done} once it has its answer. */
    @FunctionalInterface
    public interface AsyncCall {
        void send(long i, Completion done) throws Exception;
    }

    /** The answer of an asynchronous request. */
    @FunctionalInterface
    public interface Completion {
        void completed(boolean ok);
    }

    /** The warm-up and the measured window after it. */
    public record Window(long warmupNanos, long measureNanos) {
        /** From the loop's arguments, in whole seconds. */
        public static Window ofSeconds(String warmup, String measured) {
            return new Window(TimeUnit.SECONDS.toNanos(Long.parseLong(warmup)),
                    TimeUnit.SECONDS.toNanos(Long.parseLong(measured)));
        }
    }

    /** The requests of the measured window: operations (a failed request counts as one), failures, latencies in µs. */
    public record Result(long operations, long errors, double seconds, ExactHistogram micros) {
        public String line() {
            return "ops=" + operations + " seconds=" + seconds + " p99us=" + micros.percentile(99) + " errors=" + errors;
        }
    }

    /**
     * {@code threads} threads, each making its own call (built in that thread) and waiting for each
     * answer before the next request, all starting together.
     */
    public static Result threads(int threads, IntFunction<Call> perThread, Window window) throws InterruptedException {
        AtomicLong operations = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<ExactHistogram> histograms = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        long[] clock = new long[1];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ExactHistogram h = new ExactHistogram();
            histograms.add(h);
            int thread = t;
            Thread worker = new Thread(() -> {
                Call call = perThread.apply(thread);
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long measureFrom = clock[0] + window.warmupNanos();
                long end = measureFrom + window.measureNanos();
                long done = 0;
                long failed = 0;
                for (long i = 0; ; i++) {
                    long t0 = System.nanoTime();
                    if (t0 >= end) {
                        break;
                    }
                    long ops;
                    boolean ok;
                    try {
                        ops = call.run(i);
                        ok = true;
                    } catch (Exception e) {
                        ops = 1;
                        ok = false;
                    }
                    if (t0 >= measureFrom) {
                        h.record((System.nanoTime() - t0) / 1000);
                        done += ops;
                        failed += ok ? 0 : 1;
                    }
                }
                operations.addAndGet(done);
                errors.addAndGet(failed);
            }, "plain-" + (t + 1));
            workers.add(worker);
            worker.start();
        }
        clock[0] = System.nanoTime();
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        return result(operations, errors, window, histograms);
    }

    /** One thread keeping {@code inFlight} requests outstanding: a new one as soon as one is answered. */
    public static Result inFlight(int inFlight, AsyncCall call, Window window) throws Exception {
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong operations = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        Queue<ExactHistogram> histograms = new ConcurrentLinkedQueue<>();
        // answers arrive on the driver's threads: each records into a histogram of its own
        ThreadLocal<ExactHistogram> mine = ThreadLocal.withInitial(() -> {
            ExactHistogram h = new ExactHistogram();
            histograms.add(h);
            return h;
        });
        long measureFrom = System.nanoTime() + window.warmupNanos();
        long end = measureFrom + window.measureNanos();
        for (long i = 0; ; i++) {
            permits.acquire();
            long t0 = System.nanoTime();
            if (t0 >= end) {
                permits.release();
                break;
            }
            call.send(i, ok -> {
                if (t0 >= measureFrom) {
                    mine.get().record((System.nanoTime() - t0) / 1000);
                    operations.incrementAndGet();
                    if (!ok) {
                        errors.incrementAndGet();
                    }
                }
                permits.release();
            });
        }
        if (!permits.tryAcquire(inFlight, 30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("requests still in flight 30 s after the end");
        }
        return result(operations, errors, window, histograms);
    }

    private static Result result(AtomicLong operations, AtomicLong errors, Window window,
            Iterable<ExactHistogram> histograms) {
        ExactHistogram all = new ExactHistogram();
        histograms.forEach(all::merge);
        return new Result(operations.get(), errors.get(), window.measureNanos() / 1e9, all);
    }
}
