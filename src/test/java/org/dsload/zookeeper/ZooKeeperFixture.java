package org.dsload.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.testing.JMeterRuntime;

/** Builds ZooKeeper elements the way a plan would, and a plain client to check what they did. */
final class ZooKeeperFixture {
    private ZooKeeperFixture() {
    }

    static ZooKeeperConnection connection(String variable, String connectString) {
        JMeterRuntime.init();
        ZooKeeperConnection c = new ZooKeeperConnection();
        c.setName(variable);
        c.setVariableName(variable);
        c.setConnectString(connectString);
        c.setRecordGauges("false");
        return c;
    }

    static ZooKeeperSampler sampler(String connection, String operation, String path) {
        JMeterRuntime.init();
        ZooKeeperSampler s = new ZooKeeperSampler();
        s.setName(operation);
        s.setConnection(connection);
        s.setOperation(operation);
        s.setPath(path);
        return s;
    }

    static SampleResult run(String operation, String path) {
        return sampler("zk", operation, path).sample(null);
    }

    /** A client of its own, outside every dsload element. */
    static CuratorFramework plainClient(String connectString) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, 10_000, 5_000, new RetryNTimes(2, 100));
        client.start();
        if (!client.blockUntilConnected(10, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + connectString);
        }
        return client;
    }
}
