package org.dsload.bench;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

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
        PlainLoop.Window window = PlainLoop.Window.ofSeconds(args[4], args[5]);
        try (CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(args[0]).sessionTimeoutMs(30_000)
                .connectionTimeoutMs(5_000).retryPolicy(new ExponentialBackoffRetry(100, 3)).build()) {
            zk.start();
            if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to " + args[0]);
            }
            PlainLoop.Result result = PlainLoop.inFlight(inFlight, (i, done) -> zk.getData()
                    .inBackground((client, event) -> done.completed(event.getResultCode() == 0))
                    .forPath(root + "/n" + i % znodes), window);
            System.out.println(result.line());
        }
    }
}
