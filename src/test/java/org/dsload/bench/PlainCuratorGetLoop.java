package org.dsload.bench;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.dsload.report.ExactHistogram;

/**
 * The reference for requests in flight on ZooKeeper, in a JVM of its own like JMeter: one Curator
 * client with the settings of the benchmark plan, one thread keeping N background getData calls
 * outstanding with a semaphore of N, on the znodes root/n0 ... n(znodes-1) in turn. Prints
 * {@code ops=<n> seconds=<s> p99us=<µs> errors=<n>} for the window after the warm-up.
 *
 * <p>Arguments: connectString root znodes inFlight warmupSeconds seconds
 */
public final class PlainCuratorGetLoop {
    private PlainCuratorGetLoop() {
    }

    public static void main(String[] args) throws Exception {
        String root = args[1];
        int znodes = Integer.parseInt(args[2]);
        int inFlight = Integer.parseInt(args[3]);
        long warmupNanos = Long.parseLong(args[4]) * 1_000_000_000L;
        long measureNanos = Long.parseLong(args[5]) * 1_000_000_000L;
        try (CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(args[0]).sessionTimeoutMs(30_000)
                .connectionTimeoutMs(5_000).retryPolicy(new ExponentialBackoffRetry(100, 3)).build()) {
            zk.start();
            if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to " + args[0]);
            }
            Semaphore permits = new Semaphore(inFlight);
            AtomicLong ops = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            ConcurrentLinkedQueue<ExactHistogram> histograms = new ConcurrentLinkedQueue<>();
            ThreadLocal<ExactHistogram> mine = ThreadLocal.withInitial(() -> {
                ExactHistogram h = new ExactHistogram();
                histograms.add(h);
                return h;
            });
            long measureFrom = System.nanoTime() + warmupNanos;
            long end = measureFrom + measureNanos;
            for (long i = 0; ; i++) {
                permits.acquire();
                long t0 = System.nanoTime();
                if (t0 >= end) {
                    permits.release();
                    break;
                }
                zk.getData().inBackground((client, event) -> {
                    if (t0 >= measureFrom) {
                        mine.get().record((System.nanoTime() - t0) / 1000);
                        ops.incrementAndGet();
                        if (event.getResultCode() != 0) {
                            errors.incrementAndGet();
                        }
                    }
                    permits.release();
                }).forPath(root + "/n" + i % znodes);
            }
            if (!permits.tryAcquire(inFlight, 30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("requests still in flight 30 s after the end");
            }
            ExactHistogram all = new ExactHistogram();
            histograms.forEach(all::merge);
            System.out.println("ops=" + ops.get() + " seconds=" + measureNanos / 1e9 + " p99us=" + all.percentile(99)
                    + " errors=" + errors.get());
        }
    }
}
