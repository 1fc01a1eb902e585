package org.dsload.scenarios;

import java.util.Map;

/** S4: the job scheduler's capacity in domains, stepped, against an embedded ZooKeeper. */
final class ZooKeeperSchedulerScenario implements Scenario {

    @Override
    public String name() {
        return "zk-scheduler";
    }

    @Override
    public String plan() {
        return "zk-scheduler-model.jmx";
    }

    /** Three steps of 20 s, 10 to 30 domains (90 sessions): S4's shape at a size two shared cores can hold. */
    @Override
    public Map<String, String> mainJobProperties() {
        return Map.of("start_domains", "10", "step", "10", "max_domains", "30", "step_seconds", "20");
    }

    /** Its steps end at the first with more than 1 % errors: the last step may hold up to that share. */
    @Override
    public double minSuccessRatio() {
        return 0.99;
    }

    @Override
    public Target start() {
        return new ZooKeeperTarget();
    }
}
