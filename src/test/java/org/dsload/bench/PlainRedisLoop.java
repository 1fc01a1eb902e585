package org.dsload.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

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
 * Prints {@code ops=<n> seconds=<s> p99us=<µs> errors=<n>} for the window after the warm-up.
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
        PlainLoop.Window window = PlainLoop.Window.ofSeconds(args[3], args[4]);
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
        try (RedisClient client = RedisClient.builder().hostAndPort(new HostAndPort(host, port))
                .clientConfig(config).poolConfig(pool).build()) {
            client.getPool().preparePool();
            PlainLoop.Result result = PlainLoop.threads(threads, thread -> i -> {
                byte[] key = ("1:" + Math.floorMod(i, profiles)).getBytes(StandardCharsets.UTF_8);
                client.executeCommand(new CommandArguments(Protocol.Command.GET).key(key));
                return 1;
            }, window);
            System.out.println(result.line());
        }
    }
}
