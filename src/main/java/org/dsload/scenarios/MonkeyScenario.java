package org.dsload.scenarios;

import java.util.Map;

import org.dsload.targets.MonkeyCluster;

/**
 * S5 under faults: YCSB workload a, 50 operations outstanding (the plan's 2 threads x 25), on a
 * 3-node embedded cluster whose third node is hit by S5's eight faults in sequence (10 s each, 10 s
 * of recovery between them). In a distributed run the first slave applies the faults.
 */
final class MonkeyScenario implements Scenario {

    @Override
    public String name() {
        return "monkey";
    }

    @Override
    public String plan() {
        return "cassandra-monkey.jmx";
    }

    @Override
    public Map<String, String> mainJobProperties() {
        // the schedule ends the test on the engine that injects, and the runner then ends it on the other slave;
        // duration only bounds a run whose injecting engine never ends, with room for a killed node's restart,
        // which takes minutes on a busy machine
        return Map.of("workload", "a", "recordcount", "10000", "baseline", "10",
                "fault_time", "10", "gap", "10", "memory_percent", "10", "duration", "480");
    }

    /**
     * The faults fail requests on purpose (100 % packet loss fails every request to the node for 10 s,
     * S5's "client errors"): what the run must keep is that the cluster serves the rest.
     */
    @Override
    public double minSuccessRatio() {
        return 0.95;
    }

    @Override
    public Target start() throws Exception {
        MonkeyCluster monkey = MonkeyCluster.start();
        return new Target() {
            @Override
            public Map<String, String> properties() {
                return monkey.properties();
            }

            @Override
            public void close() {
                try {
                    monkey.close();
                } catch (Exception e) {
                    throw new IllegalStateException("could not stop the monkey cluster: " + e.getMessage(), e);
                }
            }
        };
    }
}
