package org.dsload.cassandra;

import static org.dsload.cassandra.CassandraFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.cassandra.report.CassandraServerSection;
import org.dsload.gauges.TestRunFolder;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.datastax.oss.driver.api.core.CqlSession;

/**
 * Virtual tables recorded from a real Cassandra node that checks logins and permissions, while a
 * Cassandra Session's samplers run, and the reads and writes checked against the coordinator.
 */
@Timeout(300)
class CassandraGaugesIT {
    private static final String WATCHER_SECRET = "watcher-secret-61";
    private static final String LOADER_SECRET = "loader-secret-29";
    private static final long LOAD_MILLIS = 2500;
    private static EmbeddedCassandra node;

    @BeforeAll
    static void startNode() {
        node = EmbeddedCassandra.startWithLogins();
        try (CqlSession s = node.session(null)) {
            s.execute("CREATE KEYSPACE gauges WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            s.execute("CREATE TABLE gauges.kv (id int PRIMARY KEY, v text)");
            s.execute("CREATE TABLE gauges.other (id int PRIMARY KEY, v text)");
            s.execute("CREATE TABLE gauges.small (id int PRIMARY KEY, v text)");
            for (int i = 0; i < 12; i++) {
                s.execute("INSERT INTO gauges.small (id, v) VALUES (" + i + ", 'x')");
            }
            // may read the virtual tables: what the gauges need
            s.execute("CREATE ROLE watcher WITH PASSWORD = '" + WATCHER_SECRET + "' AND LOGIN = true");
            s.execute("GRANT ALL ON KEYSPACE gauges TO watcher");
            s.execute("GRANT SELECT ON KEYSPACE system_views TO watcher");
            // may not
            s.execute("CREATE ROLE loader WITH PASSWORD = '" + LOADER_SECRET + "' AND LOGIN = true");
            s.execute("GRANT ALL ON KEYSPACE gauges TO loader");
        }
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    private static CassandraConnection session(String user, String password) {
        JMeterRuntime.freshVariables();
        CassandraConnection s = CassandraFixture.session(node.address());
        s.setKeyspace("gauges");
        s.setUsername(user);
        s.setPassword(password);
        return s;
    }

    private static void ok(SampleResult r) {
        assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
    }

    @Test
    void theNodesVirtualTablesAreRecordedAndTheReadsAndWritesSentMatchTheCoordinatorsCounts() throws IOException {
        try (TestRunFolder run = TestRunFolder.create("cassandra-gauges")) {
            CassandraConnection session = session("watcher", WATCHER_SECRET);
            session.testStarted();
            long reads = 0;
            long writes = 0;
            try {
                CassandraSampler paged = sampler("SELECT * FROM small", "");
                paged.setPageSize("5");
                CassandraSampler batch = sampler("INSERT INTO kv (id, v) VALUES (?, 'b'); INSERT INTO other (id, v) VALUES (?, 'b')",
                        "int #{seq:100000}\nint #{seq}");
                batch.setMode("logged batch");
                CassandraSampler conditional = sampler("INSERT INTO other (id, v) VALUES (?, 'c') IF NOT EXISTS", "int #{seq}");
                long rows = CassandraFixture.insertAndReadFor(LOAD_MILLIS);
                writes += rows;
                reads += rows;
                ok(paged.sample(null));
                reads += 3; // 12 rows in pages of 5: three requests
                ok(batch.sample(null));
                writes += 2; // one per table the batch changes
                SampleResult lwt = conditional.sample(null);
                assertTrue(lwt.isSuccessful() || "NOT_APPLIED".equals(lwt.getResponseCode()), lwt.getResponseMessage());
                reads += 1; // a conditional write reads on the coordinator and writes through Paxos
            } finally {
                session.testEnded();
            }
            List<String> lines = Files.readAllLines(run.dir().resolve(CassandraServerSection.NAME));
            assertTrue(lines.stream().filter(l -> l.contains("\t" + node.address() + "\tok\t")).count() >= 3, lines.toString());

            String section = run.section(new CassandraServerSection());
            assertTrue(section.startsWith("== Cassandra server gauges"), section);
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + reads + ", " + reads
                    + " (match) reads"), section);
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + writes + ", " + writes
                    + " (match) writes"), section);
            assertFalse(run.anyFileContains(WATCHER_SECRET));
        }
    }

    @Test
    void aRoleWithoutSelectOnSystemViewsIsNamedOnceAndTheLoadGoesOn() throws IOException {
        try (TestRunFolder run = TestRunFolder.create("cassandra-refused")) {
            CassandraConnection session = session("loader", LOADER_SECRET);
            session.testStarted();
            try {
                CassandraSampler insert = sampler("INSERT INTO kv (id, v) VALUES (?, ?)", "int #{seq}\ntext refused");
                long end = System.nanoTime() + 1500 * 1_000_000L;
                while (System.nanoTime() < end) {
                    ok(insert.sample(null));
                }
            } finally {
                session.testEnded();
            }
            List<String> refusals = Files.readAllLines(run.dir().resolve(CassandraServerSection.NAME)).stream()
                    .filter(l -> l.contains("\trefused\t")).toList();
            assertEquals(1, refusals.size(), refusals.toString());
            assertTrue(refusals.get(0).contains("has no SELECT permission"), refusals.get(0));
            String section = run.section(new CassandraServerSection());
            assertTrue(section.contains("Refused: " + node.address() + " gave no gauges: User loader has no SELECT permission"),
                    section);
            assertFalse(run.anyFileContains(LOADER_SECRET));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Test
    void withGaugesOffNothingIsRecorded() {
        try (TestRunFolder run = TestRunFolder.create("cassandra-no-gauges")) {
            CassandraConnection session = session("watcher", WATCHER_SECRET);
            session.setRecordGauges("false");
            session.testStarted();
            try {
                ok(sampler("INSERT INTO kv (id, v) VALUES (?, ?)", "int #{seq}\ntext off").sample(null));
            } finally {
                session.testEnded();
            }
            assertFalse(Files.exists(run.dir().resolve(CassandraServerSection.NAME)));
            assertEquals("", run.section(new CassandraServerSection()));
        }
    }
}
