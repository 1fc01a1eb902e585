package org.dsload.cassandra;

import static org.dsload.cassandra.CqlFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.cassandra.report.CassandraServerSection;
import org.dsload.gauges.RunFolder;
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

    private static void ok(SampleResult r) {
        assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
    }

    @Test
    void everyNodeHasAGaugesRowAndTheCoordinatorReadsAndWritesAddUpOverTheNodes() {
        try (EmbeddedCassandraCluster cluster = EmbeddedCassandraCluster.start(3);
                RunFolder run = RunFolder.create("cassandra-cluster-gauges")) {
            try (CqlSession s = cluster.node(0).session(null)) {
                s.execute("CREATE KEYSPACE three WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
                s.execute("CREATE TABLE three.kv (id int PRIMARY KEY, v text)");
            }
            JMeterRuntime.freshVariables();
            CassandraSession session = CqlFixture.session(cluster.contactPoints());
            session.setKeyspace("three");
            session.testStarted();
            long reads = 0;
            long writes = 0;
            try {
                CqlSampler insert = sampler("INSERT INTO kv (id, v) VALUES (?, ?)", "int #{seq}\ntext v");
                CqlSampler read = sampler("SELECT v FROM kv WHERE id = ?", "int #{seq}");
                long end = System.nanoTime() + LOAD_MILLIS * 1_000_000;
                while (System.nanoTime() < end) {
                    ok(insert.sample(null));
                    writes++;
                    ok(read.sample(null));
                    reads++;
                }
            } finally {
                session.testEnded();
            }
            String section = run.section(new CassandraServerSection());
            assertTrue(section.startsWith("== Cassandra server gauges"), section);
            for (EmbeddedCassandra node : cluster.nodes()) {
                assertTrue(section.contains("\n" + node.address() + "  "), node.address() + " has a row:\n" + section);
            }
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + reads + ", " + reads
                    + " (match) reads"), section);
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + writes + ", " + writes
                    + " (match) writes"), section);
            System.out.printf("dsload: 3-node cluster: %d reads and %d writes cross-checked%n", reads, writes);
        }
    }
}
