package org.dsload.serve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.dsload.targets.EmbeddedCassandra;
import org.dsload.targets.EmbeddedCassandraCluster;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.EmbeddedRedisCluster;
import org.dsload.targets.EmbeddedZooKeeper;
import org.dsload.targets.InfluxDb;
import org.dsload.targets.Placement;

/**
 * The targets {@code dsload serve} starts, the options each takes, and for each the -J
 * properties of the shipped plans that point at it.
 */
public final class ServedTargets {
    private static final String CASSANDRA_CLUSTER_HEAP = "512m";

    /** A target by the name serve takes, with its options: name to the values allowed, the first the default. */
    public enum Kind {
        REDIS("redis", Map.of()),
        REDIS_CLUSTER("redis-cluster", Map.of()),
        CASSANDRA("cassandra", Map.of("nodes", List.of("1", "3"))),
        ZOOKEEPER("zookeeper", Map.of("nodes", List.of("1", "3", "5"))),
        KAIROSDB("kairosdb", Map.of("datastore", List.of("h2", "cassandra"))),
        INFLUXDB("influxdb", Map.of());

        private final String id;
        private final Map<String, List<String>> options;

        Kind(String id, Map<String, List<String>> options) {
            this.id = id;
            this.options = options;
        }

        public String id() {
            return id;
        }

        String defaultOf(String option) {
            return options.containsKey(option) ? options.get(option).get(0) : null;
        }

        boolean takes(String option) {
            return options.containsKey(option);
        }

        void check(String option, String value) {
            List<String> allowed = options.get(option);
            if (allowed == null) {
                throw new IllegalArgumentException(id + (options.isEmpty() ? " takes no options"
                        : " takes " + options.keySet().stream().map(o -> "--" + o).collect(Collectors.joining(", ")))
                        + ", not --" + option);
            }
            if (!allowed.contains(value)) {
                throw new IllegalArgumentException(id + " --" + option + " takes " + String.join(" or ", allowed)
                        + ", not '" + value + "'");
            }
        }
    }

    private ServedTargets() {
    }

    /** The target of that name. */
    static Kind kind(String name) {
        for (Kind k : Kind.values()) {
            if (k.id.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown target '" + name + "'; known: " + known());
    }

    /** The targets with their options, as the usage says them. */
    static String known() {
        return Arrays.stream(Kind.values()).map(k -> k.id + k.options.entrySet().stream()
                .map(o -> " [--" + o.getKey() + " " + String.join("|", o.getValue()) + "]").collect(Collectors.joining()))
                .collect(Collectors.joining(", "));
    }

    /** The shipped plans a Redis target's {@code hosts} (and {@code redis_mode}) point at. */
    private static final List<String> REDIS_PLANS = List.of("ekv-profile-get.jmx", "redis-get-rate.jmx",
            "redis-get-open-model.jmx", "redis-ycsb.jmx");

    /** Starts the target in its placement; returns once it serves. */
    static Served start(ServeRequest.Target target, Placement placement) {
        String label = target.label();
        return switch (target.kind()) {
            case REDIS -> {
                EmbeddedRedis redis = EmbeddedRedis.start(placement, "redis", "redis", List.of());
                yield new Served(label, Map.of("hosts", redis.address()),
                        REDIS_PLANS,
                        processes(redis.pid()), redis);
            }
            case REDIS_CLUSTER -> {
                EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3, placement);
                yield new Served(label, ordered("hosts", cluster.addresses(), "redis_mode", "cluster"),
                        REDIS_PLANS,
                        processes(cluster.nodes().stream().mapToLong(EmbeddedRedis::pid).toArray()), cluster);
            }
            case CASSANDRA -> cassandra(label, Integer.parseInt(target.option("nodes")), placement);
            case ZOOKEEPER -> {
                EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Integer.parseInt(target.option("nodes")), placement);
                yield new Served(label, Map.of("hosts", zk.connectString()),
                        List.of("zk-latencies.jmx", "zk-scheduler-model.jmx"),
                        processes(zk.nodes().stream().mapToLong(EmbeddedZooKeeper.Node::pid).toArray()), zk);
            }
            case KAIROSDB -> kairosDb(label, target.option("datastore").equals("cassandra"), placement);
            case INFLUXDB -> {
                InfluxDb influx = InfluxDb.start(Map.of(), placement);
                yield new Served(label, ordered("influx_host", influx.host(), "influx_port", Integer.toString(influx.port())),
                        List.of("influxdb-write.jmx"), processes(influx.pid()), influx);
            }
        };
    }

    private static Served cassandra(String label, int nodes, Placement placement) {
        if (nodes == 1) {
            EmbeddedCassandra node = EmbeddedCassandra.start(placement);
            return new Served(label, Map.of("hosts", node.address()), List.of("cassandra-ycsb.jmx"),
                    processes(node.pid()), node);
        }
        EmbeddedCassandraCluster cluster = EmbeddedCassandraCluster.start(nodes, CASSANDRA_CLUSTER_HEAP, placement);
        return new Served(label, ordered("hosts", cluster.contactPoints(), "replication_factor", Integer.toString(nodes)),
                List.of("cassandra-ycsb.jmx"),
                processes(cluster.nodes().stream().mapToLong(EmbeddedCassandra::pid).toArray()), cluster);
    }

    private static Served kairosDb(String label, boolean onCassandra, Placement placement) {
        if (!onCassandra) {
            EmbeddedKairosDb kairos = EmbeddedKairosDb.options().placement(placement).start();
            return new Served(label, Map.of("urls", kairos.url()), List.of("kairosdb-write.jmx", "kairosdb-read.jmx"),
                    processes(kairos.pid()), kairos);
        }
        EmbeddedCassandra cassandra = EmbeddedCassandra.start(placement);
        try {
            EmbeddedKairosDb kairos = EmbeddedKairosDb.options().cassandra(cassandra).placement(placement).start();
            return new Served(label, Map.of("urls", kairos.url()), List.of("kairosdb-write.jmx", "kairosdb-read.jmx"),
                    processes(kairos.pid(), cassandra.pid()), () -> {
                        try {
                            kairos.close();
                        } finally {
                            cassandra.close();
                        }
                    });
        } catch (RuntimeException e) {
            cassandra.close();
            throw e;
        }
    }

    private static Map<String, String> ordered(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    private static List<ProcessHandle> processes(long... pids) {
        List<ProcessHandle> handles = new ArrayList<>();
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(handles::add);
        }
        return handles;
    }
}
