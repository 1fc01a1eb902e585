package org.dsload.redis;

import java.util.ArrayList;
import java.util.List;

import org.dsload.gauges.GaugeRecording;
import org.dsload.gauges.GaugeSource;
import org.dsload.redis.report.RedisServerSection;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Records INFO of every server a Redis Connection uses: the one server of a standalone target, or
 * every node (primaries and replicas) the cluster client knows at test start.
 */
final class RedisGauges {
    /** Connect and read timeout of a gauge connection: a poll must fit into its second. */
    static final int TIMEOUT_MILLIS = 900;
    static final String CLIENT_NAME = "dsload-gauges";

    private RedisGauges() {
    }

    /**
     * @param config the load's client settings (login, TLS); the gauge connections get their own
     *               name and short timeouts
     * @return the lease to close after the load, or null when nothing is recorded
     */
    static AutoCloseable start(String element, UnifiedJedis jedis, HostAndPort standalone, JedisClientConfig config,
            SentCommands sent) {
        JedisClientConfig gauges = DefaultJedisClientConfig.builder().from(config).clientName(CLIENT_NAME)
                .connectionTimeoutMillis(TIMEOUT_MILLIS).socketTimeoutMillis(TIMEOUT_MILLIS).build();
        return GaugeRecording.start(RedisServerSection.FILE, element, RedisClient.class, () -> {
            List<GaugeSource> sources = new ArrayList<>();
            for (HostAndPort node : nodes(jedis, standalone)) {
                sources.add(new RedisInfoSource(node, gauges));
            }
            return sources;
        }, sent::snapshot);
    }

    private static List<HostAndPort> nodes(UnifiedJedis jedis, HostAndPort standalone) {
        if (jedis instanceof RedisClusterClient cluster) {
            return cluster.getClusterNodes().keySet().stream().sorted().map(HostAndPort::from).toList();
        }
        return List.of(standalone);
    }
}
