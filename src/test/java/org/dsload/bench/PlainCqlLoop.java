package org.dsload.bench;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.dsload.core.Payloads;
import org.dsload.report.ExactHistogram;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

/**
 * The reference for the CQL benchmark, in a JVM of its own like JMeter: the same prepared write
 * (a 100-byte value) and read by key, alternately, keys at random, with the driver settings of
 * the benchmark plan's session. {@code sync}: N threads each waiting for every response;
 * {@code async}: one thread keeping N requests in flight. Prints
 * {@code ops=<n> seconds=<s> p99us=<µs> errors=<n>} for the window after the warm-up.
 *
 * <p>Arguments: host port sync|async concurrency warmupSeconds seconds keys
 */
public final class PlainCqlLoop {
    private PlainCqlLoop() {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        boolean async = args[2].equals("async");
        int concurrency = Integer.parseInt(args[3]);
        long warmupNanos = Long.parseLong(args[4]) * 1_000_000_000L;
        long measureNanos = Long.parseLong(args[5]) * 1_000_000_000L;
        int keys = Integer.parseInt(args[6]);
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "ONE")
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 1)
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 1024)
                .build();
        try (CqlSession session = CqlSession.builder().withConfigLoader(config)
                .addContactPoint(new InetSocketAddress(host, port)).withLocalDatacenter("datacenter1")
                .withKeyspace("bench").build()) {
            PreparedStatement write = session.prepare("INSERT INTO kv (k, v) VALUES (?, ?)");
            PreparedStatement read = session.prepare("SELECT k, v FROM kv WHERE k = ?");
            Result r = async ? runAsync(session, write, read, concurrency, warmupNanos, measureNanos, keys)
                    : runSync(session, write, read, concurrency, warmupNanos, measureNanos, keys);
            System.out.println("ops=" + r.ops + " seconds=" + measureNanos / 1e9 + " p99us=" + r.histogram.percentile(99)
                    + " errors=" + r.errors);
        }
    }

    private record Result(long ops, long errors, ExactHistogram histogram) {
    }

    /** The statement of the i-th request of a client: writes and reads alternate, as in the plan. */
    private static BoundStatement request(PreparedStatement write, PreparedStatement read, long i, int keys) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String key = "k" + random.nextInt(keys);
        return i % 2 == 0 ? write.bind(key, new String(Payloads.of(100, random), StandardCharsets.US_ASCII))
                : read.bind(key);
    }

    private static Result runSync(CqlSession session, PreparedStatement write, PreparedStatement read, int threads,
            long warmupNanos, long measureNanos, int keys) throws InterruptedException {
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<ExactHistogram> histograms = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        long[] clock = new long[1];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ExactHistogram h = new ExactHistogram();
            histograms.add(h);
            Thread worker = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long measureFrom = clock[0] + warmupNanos;
                long end = measureFrom + measureNanos;
                long done = 0;
                for (long i = 0; ; i++) {
                    long t0 = System.nanoTime();
                    if (t0 >= end) {
                        break;
                    }
                    try {
                        session.execute(request(write, read, i, keys));
                    } catch (RuntimeException e) {
                        if (t0 >= measureFrom) {
                            errors.incrementAndGet();
                        }
                    }
                    if (t0 >= measureFrom) {
                        h.record((System.nanoTime() - t0) / 1000);
                        done++;
                    }
                }
                ops.addAndGet(done);
            });
            workers.add(worker);
            worker.start();
        }
        clock[0] = System.nanoTime();
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        ExactHistogram all = new ExactHistogram();
        histograms.forEach(all::merge);
        return new Result(ops.get(), errors.get(), all);
    }

    private static Result runAsync(CqlSession session, PreparedStatement write, PreparedStatement read, int inFlight,
            long warmupNanos, long measureNanos, int keys) throws InterruptedException {
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        Queue<ExactHistogram> histograms = new ConcurrentLinkedQueue<>();
        ThreadLocal<ExactHistogram> mine = ThreadLocal.withInitial(() -> {
            ExactHistogram h = new ExactHistogram();
            histograms.add(h);
            return h;
        });
        long start = System.nanoTime();
        long measureFrom = start + warmupNanos;
        long end = measureFrom + measureNanos;
        for (long i = 0; ; i++) {
            permits.acquire();
            long t0 = System.nanoTime();
            if (t0 >= end) {
                permits.release();
                break;
            }
            session.executeAsync(request(write, read, i, keys)).whenComplete((rs, error) -> {
                if (t0 >= measureFrom) {
                    mine.get().record((System.nanoTime() - t0) / 1000);
                    ops.incrementAndGet();
                    if (error != null) {
                        errors.incrementAndGet();
                    }
                }
                permits.release();
            });
        }
        if (!permits.tryAcquire(inFlight, 30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("requests still in flight 30 s after the end");
        }
        ExactHistogram all = new ExactHistogram();
        histograms.forEach(all::merge);
        return new Result(ops.get(), errors.get(), all);
    }
}
