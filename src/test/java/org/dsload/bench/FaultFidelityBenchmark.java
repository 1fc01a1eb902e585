package org.dsload.bench;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.dsload.chaos.FaultDriver;
import org.dsload.chaos.FaultKind;
import org.dsload.chaos.FaultSpec;
import org.dsload.chaos.ProxyDriver;
import org.dsload.chaos.Target;
import org.dsload.chaos.proxy.FaultProxy;
import org.dsload.process.Ports;
import org.dsload.report.ExactHistogram;
import org.dsload.targets.EmbeddedRedis;

import redis.clients.jedis.Jedis;

/**
 * Fidelity, not speed: how much latency the delay fault really adds. A redis-server behind the
 * dsload fault proxy; N client threads PING through the proxy, each on its own connection, for a
 * while without a fault and then with the delay applied by the proxy driver, as a schedule would.
 * Prints, for each requested delay, the p50 added (p50 with the fault less p50 without) against
 * the requested value. System properties: {@code bench.delays} ms (50,200,1000),
 * {@code bench.threads} (1,10), {@code bench.seconds} per measurement (8).
 */
public final class FaultFidelityBenchmark {

    private FaultFidelityBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> delays = Bench.ints(System.getProperty("bench.delays", "50,200,1000"));
        List<Integer> threadCounts = Bench.threads("1,10");
        int seconds = Integer.getInteger("bench.seconds", 8);
        List<String> lines = new ArrayList<>();
        ProxyDriver driver = new ProxyDriver();
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                FaultProxy proxy = FaultProxy.start(List.of(new FaultProxy.RouteSpec("redis",
                        new InetSocketAddress("127.0.0.1", Ports.free()), new InetSocketAddress(redis.host(), redis.port()))),
                        new InetSocketAddress("127.0.0.1", 0))) {
            int port = Integer.parseInt(proxy.listenAddress("redis").split(":")[1]);
            FaultSpec.Settings settings = new FaultSpec.Settings(proxy.controlAddress(), "", Map.of(), 30_000, 60_000);
            for (int threads : threadCounts) {
                for (int delay : delays) {
                    ExactHistogram without = measure(port, threads, seconds);
                    FaultSpec spec = new FaultSpec("bench-" + delay + "-" + threads, FaultKind.DELAY,
                            new Target("redis", Map.of()), Map.of("delay", delay + "ms"), seconds * 1000L, settings);
                    FaultDriver.Applied applied = driver.apply(spec);
                    ExactHistogram with;
                    try {
                        with = measure(port, threads, seconds);
                    } finally {
                        driver.revert(applied.record());
                    }
                    double added = (with.percentile(50) - without.percentile(50)) / 1000.0;
                    lines.add(String.format(Locale.ROOT, "| %8d ms | %7d | %9.3f ms | %9.3f ms | %+10.3f ms | %+6.2f %% | %7d |",
                            delay, threads, without.percentile(50) / 1000.0, with.percentile(50) / 1000.0, added,
                            100 * (added - delay) / delay, with.count()));
                }
            }
        }
        System.out.println();
        System.out.println("Delay fault through the dsload fault proxy: p50 added against requested (PING on redis-server)");
        System.out.println("| requested   | threads | p50 without  | p50 with     | added         | error    | samples |");
        System.out.println("|-------------|---------|--------------|--------------|---------------|----------|---------|");
        lines.forEach(System.out::println);
    }

    /** PINGs from each thread on its own connection for the given time; latencies in µs. */
    private static ExactHistogram measure(int port, int threads, int seconds) throws InterruptedException {
        ConcurrentLinkedQueue<Long> micros = new ConcurrentLinkedQueue<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try (Jedis jedis = new Jedis("127.0.0.1", port, 10_000)) {
                    jedis.ping();
                    while (System.nanoTime() < end) {
                        long start = System.nanoTime();
                        jedis.ping();
                        micros.add((System.nanoTime() - start) / 1000);
                    }
                }
            });
            t.start();
            workers.add(t);
        }
        for (Thread t : workers) {
            t.join();
        }
        ExactHistogram h = new ExactHistogram();
        micros.forEach(h::record);
        return h;
    }
}
