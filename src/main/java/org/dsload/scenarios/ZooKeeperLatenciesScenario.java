package org.dsload.scenarios;

import java.util.Map;

/** S4: zk-latencies' seven phases, one client, 100-byte znodes, against an embedded ZooKeeper. */
final class ZooKeeperLatenciesScenario implements Scenario {

    @Override
    public String name() {
        return "zk-latencies";
    }

    @Override
    public String plan() {
        return "zk-latencies.jmx";
    }

    /** A tenth of S4's 100,000 znodes: each phase still runs for seconds. */
    @Override
    public Map<String, String> mainJobProperties() {
        return Map.of("znodes", "10000", "clients", "1", "size", "100", "watches", "1000");
    }

    @Override
    public Target start() {
        return new ZooKeeperTarget();
    }
}
