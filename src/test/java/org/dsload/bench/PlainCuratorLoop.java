package org.dsload.bench;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.dsload.core.Payloads;
import org.dsload.report.ExactHistogram;

/**
 * The reference for the ZooKeeper benchmark, run in a JVM of its own like JMeter: one Curator
 * client with the settings of test-plans/zk-latencies.jmx doing its phases in a plain loop,
 * synchronous calls, the same paths and data sizes. Prints one line per phase:
 * {@code phase=<label> ops=<n> millis=<span> p99us=<µs>}.
 *
 * <p>Arguments: connectString znodes size watches root
 */
public final class PlainCuratorLoop {
    private interface Op {
        void run(int i) throws Exception;
    }

    private PlainCuratorLoop() {
    }

    public static void main(String[] args) throws Exception {
        String connect = args[0];
        int znodes = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int watches = Integer.parseInt(args[3]);
        String root = args[4] + "/c1";
        SplittableRandom random = new SplittableRandom();
        try (CuratorFramework zk = client(connect); CuratorFramework writer = client(connect)) {
            phase("Create", znodes, i -> zk.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                    .forPath(root + "/" + i, Payloads.of(size, random)));
            phase("Set", znodes, i -> zk.setData().withVersion(-1).forPath(root + "/" + i, Payloads.of(size, random)));
            phase("Get", znodes, i -> zk.getData().forPath(root + "/" + i));
            phase("Delete", znodes, i -> zk.delete().withVersion(-1).forPath(root + "/" + i));
            phase("Create Ephemeral", znodes, i -> zk.create().creatingParentContainersIfNeeded()
                    .withMode(CreateMode.EPHEMERAL).forPath(root + "/e" + i, Payloads.of(size, random)));
            Watcher counting = event -> { };
            phase("Watch", znodes, i -> zk.checkExists().usingWatcher(counting).forPath(root + "/e" + i));
            phase("Delete Ephemeral", znodes, i -> zk.delete().withVersion(-1).forPath(root + "/e" + i));
            notifications(zk, writer, root, watches, size, random);
        }
    }

    private static CuratorFramework client(String connect) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connect).sessionTimeoutMs(30_000)
                .connectionTimeoutMs(5_000).retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
        client.start();
        client.blockUntilConnected(30, TimeUnit.SECONDS);
        return client;
    }

    private static void phase(String label, int count, Op op) throws Exception {
        ExactHistogram micros = new ExactHistogram();
        long first = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            op.run(i);
            micros.record((System.nanoTime() - t0) / 1000);
        }
        long span = System.nanoTime() - first;
        System.out.println("phase=" + label + " ops=" + count + " millis=" + span / 1_000_000.0 + " p99us="
                + micros.percentile(99));
    }

    /** A watch on an absent node, the second session creates it; then the same for deletes. */
    private static void notifications(CuratorFramework zk, CuratorFramework writer, String root, int count, int size,
            SplittableRandom random) throws Exception {
        ExactHistogram micros = new ExactHistogram();
        long first = System.nanoTime();
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < count; i++) {
                String path = root + "/w" + i;
                CountDownLatch fired = new CountDownLatch(1);
                long[] at = new long[1];
                zk.checkExists().usingWatcher((Watcher) event -> {
                    at[0] = System.nanoTime();
                    fired.countDown();
                }).forPath(path);
                long sent = System.nanoTime();
                if (pass == 0) {
                    writer.create().creatingParentContainersIfNeeded().forPath(path, Payloads.of(size, random));
                } else {
                    writer.delete().forPath(path);
                }
                if (!fired.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no notification for " + path);
                }
                micros.record((at[0] - sent) / 1000);
            }
        }
        long span = System.nanoTime() - first;
        System.out.println("phase=Watch notification ops=" + 2 * count + " millis=" + span / 1_000_000.0 + " p99us="
                + micros.percentile(99));
    }
}
