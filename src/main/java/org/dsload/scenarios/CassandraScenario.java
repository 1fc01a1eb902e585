package org.dsload.scenarios;

import java.util.Map;

import org.dsload.targets.EmbeddedCassandra;

/** S5's baseline: YCSB workload a on CQL, 50 client threads, against an embedded Cassandra node. */
final class CassandraScenario implements Scenario {

    @Override
    public String name() {
        return "cassandra";
    }

    @Override
    public String plan() {
        return "cassandra-ycsb.jmx";
    }

    @Override
    public Map<String, String> mainJobProperties() {
        return Map.of("workload", "a", "threads", "50", "duration", "30", "recordcount", "10000", "load_threads", "8");
    }

    @Override
    public Target start() {
        EmbeddedCassandra cassandra = EmbeddedCassandra.start();
        return new Target() {
            @Override
            public Map<String, String> properties() {
                return Map.of("hosts", cassandra.address());
            }

            @Override
            public void close() {
                cassandra.close();
            }
        };
    }
}
