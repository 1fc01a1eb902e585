package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dsload.cassandra.report.CassandraServerSection;
import org.dsload.gauges.TestRunFolder;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.targets.EmbeddedCassandraCluster;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.datastax.oss.driver.api.core.CqlSession;

/**
 * The virtual tables of every node of a 3-node cluster recorded while a Cassandra Session's
 * samplers run, and the reads and writes they sent checked against the coordinators' counts
 * summed over the nodes (each request has one coordinator, whichever node the driver chose).
 */
@Timeout(400)
class CassandraClusterGaugesIT {
    private static final long LOAD_MILLIS = 3000;

    @Test
    void everyNodeHasAGaugesRowAndTheCoordinatorReadsAndWritesAddUpOverTheNodes() {
        try (EmbeddedCassandraCluster cluster = EmbeddedCassandraCluster.start(3);
                TestRunFolder run = TestRunFolder.create("cassandra-cluster-gauges")) {
            try (CqlSession s = cluster.node(0).session(null)) {
                s.execute("CREATE KEYSPACE three WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
                s.execute("CREATE TABLE three.kv (id int PRIMARY KEY, v text)");
            }
            JMeterRuntime.freshVariables();
            CassandraConnection session = CassandraFixture.session(cluster.contactPoints());
            session.setKeyspace("three");
            session.testStarted();
            long rows;
            try {
                rows = CassandraFixture.insertAndReadFor(LOAD_MILLIS);
            } finally {
                session.testEnded();
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
}
