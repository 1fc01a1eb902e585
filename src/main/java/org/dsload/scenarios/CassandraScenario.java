package org.dsload.scenarios;

import java.util.Map;

import org.dsload.targets.EmbeddedCassandra;

/**
 * S5's baseline: YCSB workload a on CQL, 50 operations outstanding (the plan's 2 threads x 25),
 * against an embedded Cassandra node.
 */
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
        return Map.of("workload", "a", "duration", "30", "recordcount", "10000");
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
