package org.dsload.scenarios;

import java.util.Map;

/** YCSB workload a on a Redis-protocol store, in YCSB's redis layout, against an embedded redis-server. */
final class RedisYcsbScenario implements Scenario {

    @Override
    public String name() {
        return "redis-ycsb";
    }

    @Override
    public String plan() {
        return "redis-ycsb.jmx";
    }

    @Override
    public Map<String, String> mainJobProperties() {
        return Map.of("workload", "a", "duration", "20", "recordcount", "10000");
    }

    /** The same target as the ekv scenario: an embedded redis-server. */
    @Override
    public Target start() {
        return new EkvScenario().start();
    }
}
