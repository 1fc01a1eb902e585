package org.dsload.bench;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.dsload.core.Payloads;

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
        PlainLoop.Window window = PlainLoop.Window.ofSeconds(args[4], args[5]);
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
            PlainLoop.Result result = async
                    ? PlainLoop.inFlight(concurrency, (i, done) -> session.executeAsync(request(write, read, i, keys))
                            .whenComplete((rs, error) -> done.completed(error == null)), window)
                    : PlainLoop.threads(concurrency, thread -> i -> {
                        session.execute(request(write, read, i, keys));
                        return 1;
                    }, window);
            System.out.println(result.line());
        }
    }

    /** The statement of the i-th request of a client: writes and reads alternate, as in the plan. */
    private static BoundStatement request(PreparedStatement write, PreparedStatement read, long i, int keys) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String key = "k" + random.nextInt(keys);
        return i % 2 == 0 ? write.bind(key, new String(Payloads.of(100, random), StandardCharsets.US_ASCII))
                : read.bind(key);
    }
}
