package org.dsload.cassandra;

import static org.dsload.cassandra.CassandraFixture.sampler;
import static org.dsload.cassandra.CassandraFixture.session;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.GeneratorMetrics;
import org.dsload.targets.EmbeddedCassandraCluster;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.datastax.oss.driver.api.core.CqlSession;

/** What a CQL Request shows when a replica of a two-node cluster goes down. */
@Timeout(300)
class CassandraClusterIT {
    private static EmbeddedCassandraCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCassandraCluster.start(2);
        System.out.printf("dsload: 2-node Cassandra cluster %s ready, nodes in %.1f s and %.1f s%n", cluster.contactPoints(),
                cluster.node(0).startTime().toMillis() / 1000.0, cluster.node(1).startTime().toMillis() / 1000.0);
        try (CqlSession s = cluster.node(0).session(null)) {
            s.execute("CREATE KEYSPACE two WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
            s.execute("CREATE TABLE two.kv (k text PRIMARY KEY, v text)");
        }
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void consistencyAllAgainstAStoppedReplicaGivesUnavailableSamples() throws InterruptedException {
        JMeterRuntime.freshVariables();
        CassandraConnection connection = session(cluster.node(0).address());
        connection.setKeyspace("two");
        connection.testStarted();
        try {
            CassandraSampler writeAll = sampler("INSERT INTO kv (k, v) VALUES (?, ?)", "text k#{seq}\ntext v");
            writeAll.setConsistency("ALL");
            SampleResult before = writeAll.sample(null);
            assertTrue(before.isSuccessful(), before.getResponseCode() + " " + before.getResponseMessage());
            Object open = GeneratorMetrics.registry().getGauges().get("dsload.connections.cassandra").getValue();
            assertTrue((Integer) open >= 2, "a connection to each node, and the control connection: " + open);

            cluster.node(1).stop();

            // The stopped node announced its shutdown; the coordinator knows at once, the driver soon.
            List<String> seen = new ArrayList<>();
            SampleResult unavailable = null;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (unavailable == null && System.nanoTime() < deadline) {
                SampleResult r = writeAll.sample(null);
                seen.add(r.getResponseCode() + " " + r.getResponseMessage());
                if (r.getResponseCode().equals("UnavailableException")) {
                    unavailable = r;
                } else {
                    Thread.sleep(200);
                }
            }
            assertTrue(unavailable != null, "no UnavailableException within 30 s; first and last seen: " + seen.get(0)
                    + " / " + seen.get(seen.size() - 1));
            assertTrue(!unavailable.isSuccessful());
            assertTrue(unavailable.getResponseMessage().contains(
                    "Not enough replicas available for query at consistency ALL (2 required but only 1 alive)"),
                    unavailable.getResponseMessage());
            assertTrue(unavailable.getResponseMessage().contains("[coordinator " + cluster.node(0).address() + "]"),
                    unavailable.getResponseMessage());

            CassandraSampler readAll = sampler("SELECT * FROM kv WHERE k = ?", "text k0");
            readAll.setConsistency("ALL");
            assertEquals("UnavailableException", readAll.sample(null).getResponseCode());

            CassandraSampler writeOne = sampler("INSERT INTO kv (k, v) VALUES (?, ?)", "text one\ntext v");
            writeOne.setConsistency("ONE");
            SampleResult one = writeOne.sample(null);
            assertTrue(one.isSuccessful(), "ONE is still met by the live node: " + one.getResponseMessage());
        } finally {
            connection.testEnded();
        }
    }
}
