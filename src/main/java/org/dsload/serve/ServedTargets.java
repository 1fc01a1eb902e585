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
import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.targets.Placement;

/**
 * The targets {@code dsload serve} starts, the options each takes, and for each the -J
 * properties of the shipped plans that point at it.
 */
public final class ServedTargets {
    private static final String CASSANDRA_CLUSTER_HEAP = "512m";

    /** The values of an option that stands alone ({@code --logins}): off unless named. */
    static final List<String> FLAG = List.of("false", "true");
    static final String LOGINS = "logins";

    /**
     * A target by the name serve takes, with its options: name to the values allowed, the first the
     * default; {@link #FLAG} for an option without a value.
     */
    public enum Kind {
        REDIS("redis", LOGINS, FLAG),
        REDIS_CLUSTER("redis-cluster"),
        CASSANDRA("cassandra", "nodes", List.of("1", "3"), LOGINS, FLAG),
        ZOOKEEPER("zookeeper", "nodes", List.of("1", "3", "5")),
        KAIROSDB("kairosdb", "datastore", List.of("h2", "cassandra"), LOGINS, FLAG),
        INFLUXDB("influxdb");

        private final String id;
        private final Map<String, List<String>> options = new LinkedHashMap<>();

        @SuppressWarnings("unchecked")
        Kind(String id, Object... namesAndValues) {
            this.id = id;
            for (int i = 0; i < namesAndValues.length; i += 2) {
                options.put((String) namesAndValues[i], (List<String>) namesAndValues[i + 1]);
            }
        }

        /** Its options' names, in the order the usage gives them. */
        java.util.Set<String> optionNames() {
            return options.keySet();
        }

        /** Whether the option stands alone, without a value. */
        boolean isFlag(String option) {
            return FLAG.equals(options.get(option));
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
                .map(o -> " [--" + o.getKey() + (k.isFlag(o.getKey()) ? "" : " " + String.join("|", o.getValue())) + "]")
                .collect(Collectors.joining())).collect(Collectors.joining(", "));
    }

    /** The shipped plans a Redis target's {@code hosts} (and {@code redis_mode}) point at. */
    private static final List<String> REDIS_PLANS = List.of("ekv-profile-get.jmx", "redis-get-rate.jmx",
            "redis-get-open-model.jmx", "redis-ycsb.jmx");

    /** Starts the target in its placement; returns once it serves. */
    static Served start(ServeRequest.Target target, Placement placement) {
        String label = target.label();
        boolean logins = Boolean.parseBoolean(target.option(LOGINS));
        return switch (target.kind()) {
            case REDIS -> {
                EmbeddedRedis redis = EmbeddedRedis.start(placement, "redis", "redis", List.of());
                if (!logins) {
                    yield new Served(label, Map.of("hosts", redis.address()), REDIS_PLANS, processes(redis.pid()), redis);
                }
                try {
                    ServeLogins.Login login = ServeLogins.create(placement, "redis", "default");
                    ServeLogins.requirePassword(redis, login.password());
                    yield new Served(label, ordered("hosts", redis.address(), "redis_password", login.reference()),
                            REDIS_PLANS, processes(redis.pid()), redis, List.of(login.secret()));
                } catch (RuntimeException e) {
                    redis.close();
                    throw e;
                }
            }
            case REDIS_CLUSTER -> {
                EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3, placement);
                yield new Served(label, ordered("hosts", cluster.addresses(), "redis_mode", "cluster"),
                        REDIS_PLANS,
                        processes(cluster.nodes().stream().mapToLong(EmbeddedRedis::pid).toArray()), cluster);
            }
            case CASSANDRA -> cassandra(label, Integer.parseInt(target.option("nodes")), logins, placement);
            case ZOOKEEPER -> {
                EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Integer.parseInt(target.option("nodes")), placement);
                yield new Served(label, Map.of("hosts", zk.connectString()),
                        List.of("zk-latencies.jmx", "zk-scheduler-model.jmx"),
                        processes(zk.nodes().stream().mapToLong(EmbeddedZooKeeper.Node::pid).toArray()), zk);
            }
            case KAIROSDB -> kairosDb(label, target.option("datastore").equals("cassandra"), logins, placement);
            case INFLUXDB -> {
                EmbeddedInfluxDb influx = EmbeddedInfluxDb.start(Map.of(), placement);
                yield new Served(label, ordered("influx_host", influx.host(), "influx_port", Integer.toString(influx.port())),
                        List.of("influxdb-write.jmx"), processes(influx.pid()), influx);
            }
        };
    }

    /**
     * Refuses what serve cannot start together: logins on a Cassandra cluster (one node with
     * logins is what the tests and the shipped plan need).
     */
    static void check(ServeRequest.Target target) {
        if (target.kind() == Kind.CASSANDRA && Boolean.parseBoolean(target.option(LOGINS))
                && !target.option("nodes").equals("1")) {
            throw new IllegalArgumentException("cassandra --logins starts one node: leave out --nodes "
                    + target.option("nodes"));
        }
    }

    private static Served cassandra(String label, int nodes, boolean logins, Placement placement) {
        if (nodes == 1) {
            EmbeddedCassandra node = logins ? EmbeddedCassandra.startWithLogins(placement) : EmbeddedCassandra.start(placement);
            if (!logins) {
                return new Served(label, Map.of("hosts", node.address()), List.of("cassandra-ycsb.jmx"),
                        processes(node.pid()), node);
            }
            try {
                ServeLogins.Login login = ServeLogins.create(placement, "cassandra", "dsload");
                ServeLogins.createRole(node, login);
                return new Served(label, ordered("hosts", node.address(), "cassandra_user", login.user(),
                        "cassandra_password", login.reference()), List.of("cassandra-ycsb.jmx"), processes(node.pid()),
                        node, List.of(login.secret()));
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }
        EmbeddedCassandraCluster cluster = EmbeddedCassandraCluster.start(nodes, CASSANDRA_CLUSTER_HEAP, placement);
        return new Served(label, ordered("hosts", cluster.contactPoints(), "replication_factor", Integer.toString(nodes)),
                List.of("cassandra-ycsb.jmx"),
                processes(cluster.nodes().stream().mapToLong(EmbeddedCassandra::pid).toArray()), cluster);
    }

    private static Served kairosDb(String label, boolean onCassandra, boolean logins, Placement placement) {
        ServeLogins.Login login = logins ? ServeLogins.create(placement, "kairosdb", "dsload") : null;
        Map<String, String> properties = new LinkedHashMap<>();
        List<ProcessHandle> processes;
        AutoCloseable stopper;
        if (!onCassandra) {
            EmbeddedKairosDb.Options options = EmbeddedKairosDb.options().placement(placement);
            EmbeddedKairosDb kairos = (login == null ? options : options.basicAuth(login.user(), login.password())).start();
            properties.put("urls", kairos.url());
            processes = processes(kairos.pid());
            stopper = kairos;
        } else {
            EmbeddedCassandra cassandra = EmbeddedCassandra.start(placement);
            try {
                EmbeddedKairosDb.Options options = EmbeddedKairosDb.options().cassandra(cassandra).placement(placement);
                EmbeddedKairosDb kairos = (login == null ? options : options.basicAuth(login.user(), login.password()))
                        .start();
                properties.put("urls", kairos.url());
                processes = processes(kairos.pid(), cassandra.pid());
                stopper = () -> {
                    try {
                        kairos.close();
                    } finally {
                        cassandra.close();
                    }
                };
            } catch (RuntimeException e) {
                cassandra.close();
                throw e;
            }
        }
        if (login != null) {
            properties.put("kairosdb_user", login.user());
            properties.put("kairosdb_password", login.reference());
        }
        return new Served(label, properties, List.of("kairosdb-write.jmx", "kairosdb-read.jmx"), processes, stopper,
                login == null ? List.of() : List.of(login.secret()));
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
