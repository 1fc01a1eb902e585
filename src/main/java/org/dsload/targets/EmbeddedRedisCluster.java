package org.dsload.targets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.dsload.process.Deadline;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

/**
 * A Redis Cluster of real redis-server processes, masters only, 16384 slots split evenly, each
 * node on a loopback port whose bus port (port + 10000) is free too.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {
    private static final int SLOTS = 16384;
    private static final int BUS_OFFSET = 10000;
    private static final Duration FORM_LIMIT = Duration.ofSeconds(30);
    private final List<EmbeddedRedis> nodes = new ArrayList<>();

    private EmbeddedRedisCluster() {
    }

    public static EmbeddedRedisCluster start(int masters) {
        return start(masters, Placement.scratch());
    }

    /** Node i (from 1) on the placement's port {@code redis-cluster.<i>} in its folder {@code node-<i>}. */
    public static EmbeddedRedisCluster start(int masters, Placement placement) {
        EmbeddedRedisCluster cluster = new EmbeddedRedisCluster();
        try {
            for (int i = 1; i <= masters; i++) {
                int port = placement.ports().pick("redis-cluster." + i, List.of("127.0.0.1"), BUS_OFFSET);
                Placement fixed = new Placement((name, addresses, offset) -> port, placement.root(), placement.keepData());
                cluster.nodes.add(EmbeddedRedis.start(fixed, "redis-cluster." + i, "node-" + i, List.of("--cluster-enabled",
                        "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "3000")));
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
        if (!allAgree(n)) {
            for (int i = 0; i < n; i++) {
                // a node kept from an earlier run knows its slots already
                if (info(nodes.get(i)).contains("cluster_slots_assigned:0")) {
                    addSlots(nodes.get(i), SLOTS * i / n, SLOTS * (i + 1) / n);
                }
            }
            try (Jedis first = new Jedis(nodes.get(0).host(), nodes.get(0).port())) {
                for (int i = 1; i < n; i++) {
                    first.sendCommand(Protocol.Command.CLUSTER, "MEET", nodes.get(i).host(),
                            Integer.toString(nodes.get(i).port()));
                }
            }
        }
        long deadline = System.nanoTime() + FORM_LIMIT.toNanos();
        while (!allAgree(n)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis Cluster on " + addresses() + " did not reach cluster_state:ok in "
                        + FORM_LIMIT.toSeconds() + " s");
            }
            Deadline.sleep(200);
        }
    }

    private static void addSlots(EmbeddedRedis node, int from, int to) {
        try (Jedis jedis = new Jedis(node.host(), node.port())) {
            String[] args = new String[to - from + 1];
            args[0] = "ADDSLOTS";
            for (int slot = from; slot < to; slot++) {
                args[slot - from + 1] = Integer.toString(slot);
            }
            jedis.sendCommand(Protocol.Command.CLUSTER, args);
        }
    }

    private boolean allAgree(int n) {
        for (EmbeddedRedis node : nodes) {
            String info = info(node);
            if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + n)) {
                return false;
            }
        }
        return true;
    }

    private static String info(EmbeddedRedis node) {
        try (Jedis jedis = new Jedis(node.host(), node.port())) {
            return new String((byte[]) jedis.sendCommand(Protocol.Command.CLUSTER, "INFO"));
        }
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
