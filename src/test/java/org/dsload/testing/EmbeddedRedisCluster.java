package org.dsload.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

/**
 * A Redis Cluster of real redis-server processes, masters only, 16384 slots split evenly, each
 * node on a free loopback port whose bus port (port + 10000) is free too.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {
    private static final int SLOTS = 16384;
    private final List<EmbeddedRedis> nodes = new ArrayList<>();

    private EmbeddedRedisCluster() {
    }

    public static EmbeddedRedisCluster start(int masters) {
        EmbeddedRedisCluster cluster = new EmbeddedRedisCluster();
        try {
            for (int i = 0; i < masters; i++) {
                int port = Ports.freeWithCompanion("127.0.0.1", 10000);
                cluster.nodes.add(EmbeddedRedis.start("127.0.0.1", port, List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes-" + port + ".conf", "--cluster-node-timeout", "3000")));
            }
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void form() {
        int n = nodes.size();
        for (int i = 0; i < n; i++) {
            int from = SLOTS * i / n;
            int to = SLOTS * (i + 1) / n;
            String[] args = new String[to - from + 1];
            args[0] = "ADDSLOTS";
            for (int slot = from; slot < to; slot++) {
                args[slot - from + 1] = Integer.toString(slot);
            }
            try (Jedis jedis = new Jedis(nodes.get(i).host(), nodes.get(i).port())) {
                jedis.sendCommand(Protocol.Command.CLUSTER, args);
            }
        }
        try (Jedis first = new Jedis(nodes.get(0).host(), nodes.get(0).port())) {
            for (int i = 1; i < n; i++) {
                first.sendCommand(Protocol.Command.CLUSTER, "MEET", nodes.get(i).host(),
                        Integer.toString(nodes.get(i).port()));
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!allAgree(n)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis Cluster on " + addresses() + " did not reach cluster_state:ok in 30 s");
            }
            ManagedProcess.sleep(200);
        }
    }

    private boolean allAgree(int n) {
        for (EmbeddedRedis node : nodes) {
            try (Jedis jedis = new Jedis(node.host(), node.port())) {
                String info = new String((byte[]) jedis.sendCommand(Protocol.Command.CLUSTER, "INFO"));
                if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + n)) {
                    return false;
                }
            }
        }
        return true;
    }

    public List<EmbeddedRedis> nodes() {
        return nodes;
    }

    /** Comma-separated host:port of every node, as a Hosts field takes it. */
    public String addresses() {
        return nodes.stream().map(EmbeddedRedis::address).collect(Collectors.joining(","));
    }

    @Override
    public void close() {
        nodes.forEach(EmbeddedRedis::close);
    }
}
