package org.dsload.redis;

import java.util.Map;

import org.dsload.core.ConnectionCounting;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;

/**
 * The Jedis client a Redis Connection element shares with its samplers, with the settings the
 * samplers need to explain a failure (where it was going, which timeout applied), and what
 * samplers that keep requests in flight need to open connections of their own ({@link #endpoint}).
 */
public final class RedisClient implements AutoCloseable, ConnectionCounting {
    private final UnifiedJedis jedis;
    private final String target;
    private final int socketTimeoutMillis;
    private final String poolSummary;
    private final RedisEndpoint endpoint;
    private ClusterSlots slots;
    private final SentCommands sent = new SentCommands();
    /** The server gauges recorded while the client is open, or null. */
    private AutoCloseable gauges;

    RedisClient(UnifiedJedis jedis, String target, int socketTimeoutMillis, String poolSummary,
            RedisEndpoint endpoint) {
        this.jedis = jedis;
        this.target = target;
        this.socketTimeoutMillis = socketTimeoutMillis;
        this.poolSummary = poolSummary;
        this.endpoint = endpoint;
    }

    RedisEndpoint endpoint() {
        return endpoint;
    }

    /** The cluster's slot owners, asked once per test through the shared client. */
    synchronized ClusterSlots clusterSlots() {
        if (slots == null) {
            slots = ClusterSlots.read(jedis, endpoint.hosts().get(0).host());
        }
        return slots;
    }

    /** Sends one command, counted for the cross-check with the servers' commandstats. */
    public Object execute(CommandArguments command) {
        sent.add(command, 1);
        return jedis.executeCommand(command);
    }

    public AbstractPipeline pipelined() {
        return jedis.pipelined();
    }

    /** Counts {@code n} commands like {@code command} that a sampler is about to send in a pipeline, for the cross-check. */
    public void countSent(CommandArguments command, int n) {
        sent.add(command, n);
    }

    SentCommands sent() {
        return sent;
    }

    void recordGauges(AutoCloseable lease) {
        this.gauges = lease;
    }

    public boolean isCluster() {
        return jedis instanceof RedisClusterClient;
    }

    /** Host(s) and mode, for messages. */
    public String target() {
        return target;
    }

    public int socketTimeoutMillis() {
        return socketTimeoutMillis;
    }

    /** The pool limits, for the message of an exhausted pool. */
    public String poolSummary() {
        return poolSummary;
    }

    /** Connections currently open (borrowed plus idle) across every node, threads' own connections included. */
    @Override
    public int openConnections() {
        int own = endpoint == null ? 0 : endpoint.openConnections().get();
        return own + pooled();
    }

    private int pooled() {
        // Jedis names its standalone client as this class is named: spelled out in full.
        if (jedis instanceof redis.clients.jedis.RedisClient standalone) {
            return open(standalone.getPool());
        }
        if (jedis instanceof RedisClusterClient cluster) {
            int total = 0;
            for (Map.Entry<String, ConnectionPool> node : cluster.getClusterNodes().entrySet()) {
                total += open(node.getValue());
            }
            return total;
        }
        return 0;
    }

    private static int open(Pool<?> pool) {
        return pool.getNumActive() + pool.getNumIdle();
    }

    /** The gauges are read a last time first: after the load, before the client goes. */
    @Override
    public void close() {
        if (gauges != null) {
            try {
                gauges.close();
            } catch (Exception e) {
                // the gauges are a side figure: closing the client matters more
            }
            gauges = null;
        }
        jedis.close();
    }
}
