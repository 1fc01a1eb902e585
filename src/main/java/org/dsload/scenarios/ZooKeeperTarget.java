package org.dsload.scenarios;

import java.util.Map;

import org.dsload.targets.EmbeddedZooKeeper;

/** A real ZooKeeper server for a scenario; {@code -Ddsload.zk_nodes=3} makes it an ensemble. */
final class ZooKeeperTarget implements Scenario.Target {
    private final EmbeddedZooKeeper zk;

    ZooKeeperTarget() {
        int nodes = Integer.getInteger("dsload.zk_nodes", 1);
        zk = nodes > 1 ? EmbeddedZooKeeper.ensemble(nodes) : EmbeddedZooKeeper.single();
    }

    @Override
    public Map<String, String> properties() {
        return Map.of("hosts", zk.connectString());
    }

    @Override
    public void close() {
        zk.close();
    }
}
