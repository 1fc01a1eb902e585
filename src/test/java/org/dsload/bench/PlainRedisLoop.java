package org.dsload.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.dsload.report.ExactHistogram;

import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * The reference for the Redis benchmark, run in a JVM of its own like JMeter: N threads loop
 * GET 1:&lt;id&gt; over one RedisClient with the pool settings of test-plans/ekv-profile-get.jmx.
 * Prints {@code ops=<n> seconds=<s> p99us=<µs>} for the window after the warm-up.
 *
 * <p>Arguments: host port threads warmupSeconds seconds profiles
 */
public final class PlainRedisLoop {
    private PlainRedisLoop() {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        long warmupNanos = Long.parseLong(args[3]) * 1_000_000_000L;
        long measureNanos = Long.parseLong(args[4]) * 1_000_000_000L;
        int profiles = Integer.parseInt(args[5]);

        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMinIdle(50);
        pool.setMaxIdle(200);
        pool.setMaxTotal(500);
        pool.setBlockWhenExhausted(false);
        pool.setMaxWait(Duration.ofMillis(3000));
        pool.setTestOnBorrow(false);
        pool.setTestOnReturn(false);
        pool.setTestWhileIdle(false);
        pool.setJmxEnabled(false);
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder().serverDefaultProtocol()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(2000).build();
        AtomicLong operations = new AtomicLong();
        List<ExactHistogram> histograms = new ArrayList<>();
        try (RedisClient client = RedisClient.builder().hostAndPort(new HostAndPort(host, port))
                .clientConfig(config).poolConfig(pool).build()) {
            client.getPool().preparePool();
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
                    long seq = 0;
                    long done = 0;
                    while (true) {
                        long t0 = System.nanoTime();
                        if (t0 >= end) {
                            break;
                        }
                        byte[] key = ("1:" + Math.floorMod(seq++, profiles)).getBytes(StandardCharsets.UTF_8);
                        client.executeCommand(new CommandArguments(Protocol.Command.GET).key(key));
                        if (t0 >= measureFrom) {
                            h.record((System.nanoTime() - t0) / 1000);
                            done++;
                        }
                    }
                    operations.addAndGet(done);
                });
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
        System.out.println("ops=" + operations.get() + " seconds=" + measureNanos / 1e9 + " p99us=" + all.percentile(99));
    }
}
