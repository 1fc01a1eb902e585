package org.dsload.cassandra;

import static org.dsload.cassandra.CassandraFixture.sampler;
import static org.dsload.cassandra.CassandraFixture.session;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.cassandra.report.CassandraServerSection;
import org.dsload.core.GeneratorMetrics;
import org.dsload.gauges.TestRunFolder;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.targets.EmbeddedCassandraCluster;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import com.datastax.oss.driver.api.core.CqlSession;

/**
 * A 3-node cluster at replication factor 3, started once: first the virtual tables of every node
 * recorded while a Cassandra Session's samplers run, and the reads and writes they sent checked
 * against the coordinators' counts summed over the nodes (each request has one coordinator, whichever
 * node the driver chose); then what a CQL Request shows when a replica goes down.
 */
@Timeout(400)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CassandraClusterIT {
    private static final long LOAD_MILLIS = 3000;
    private static EmbeddedCassandraCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCassandraCluster.start(3);
        System.out.printf("dsload: 3-node Cassandra cluster %s ready%n", cluster.contactPoints());
        try (CqlSession s = cluster.node(0).session(null)) {
            s.execute("CREATE KEYSPACE three WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
            s.execute("CREATE TABLE three.kv (id int PRIMARY KEY, v text)");
            s.execute("CREATE TABLE three.kt (k text PRIMARY KEY, v text)");
        }
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void everyNodeHasAGaugesRowAndTheCoordinatorReadsAndWritesAddUpOverTheNodes() {
        try (TestRunFolder run = TestRunFolder.create("cassandra-cluster-gauges")) {
            JMeterRuntime.freshVariables();
            CassandraConnection connection = session(cluster.contactPoints());
            connection.setKeyspace("three");
            connection.testStarted();
            long rows;
            try {
                rows = CassandraFixture.insertAndReadFor(LOAD_MILLIS);
            } finally {
                connection.testEnded();
            }
            String section = run.section(new CassandraServerSection());
            assertTrue(section.startsWith("== Cassandra server gauges"), section);
            for (EmbeddedCassandra node : cluster.nodes()) {
                assertTrue(section.contains("\n" + node.address() + "  "), node.address() + " has a row:\n" + section);
            }
            // as many reads as writes: each row was inserted and read back
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + rows + ", " + rows
                    + " (match) reads"), section);
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + rows + ", " + rows
                    + " (match) writes"), section);
            System.out.printf("dsload: 3-node cluster: %d reads and %d writes cross-checked%n", rows, rows);
        }
    }

    @Test
    @Order(2)
    void consistencyAllAgainstAStoppedReplicaGivesUnavailableSamples() throws InterruptedException {
        JMeterRuntime.freshVariables();
        CassandraConnection connection = session(cluster.node(0).address());
        connection.setKeyspace("three");
        connection.testStarted();
        try {
            CassandraSampler writeAll = sampler("INSERT INTO kt (k, v) VALUES (?, ?)", "text k#{seq}\ntext v");
            writeAll.setConsistency("ALL");
            SampleResult before = writeAll.sample(null);
            assertTrue(before.isSuccessful(), before.getResponseCode() + " " + before.getResponseMessage());
            Object open = GeneratorMetrics.registry().getGauges().get("dsload.connections.cassandra").getValue();
            assertTrue((Integer) open >= 3, "a connection to each node, and the control connection: " + open);

            cluster.node(2).stop();

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
                    "Not enough replicas available for query at consistency ALL (3 required but only 2 alive)"),
                    unavailable.getResponseMessage());
            // the driver spreads requests over the live nodes: the coordinator is either of them
            String message = unavailable.getResponseMessage();
            assertTrue(message.contains("[coordinator " + cluster.node(0).address() + "]")
                    || message.contains("[coordinator " + cluster.node(1).address() + "]"), message);

            CassandraSampler readAll = sampler("SELECT * FROM kt WHERE k = ?", "text k0");
            readAll.setConsistency("ALL");
            assertEquals("UnavailableException", readAll.sample(null).getResponseCode());

            CassandraSampler writeOne = sampler("INSERT INTO kt (k, v) VALUES (?, ?)", "text one\ntext v");
            writeOne.setConsistency("ONE");
            SampleResult one = writeOne.sample(null);
            assertTrue(one.isSuccessful(), "ONE is still met by the live nodes: " + one.getResponseMessage());
        } finally {
            connection.testEnded();
        }
    }
}
