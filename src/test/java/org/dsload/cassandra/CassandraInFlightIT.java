package org.dsload.cassandra;

import static org.dsload.cassandra.CassandraFixture.sampler;
import static org.dsload.cassandra.CassandraFixture.session;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.chaos.proxy.FaultProxy;
import org.dsload.core.Completion;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.testing.SamplerThread;
import org.dsload.testing.SharedCassandra;
import org.dsload.ycsb.YcsbSampler;
import org.dsload.ycsb.YcsbWorkload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;

/** CQL Request and YCSB Operation with requests in flight against a real Cassandra node. */
@Timeout(300)
@ExtendWith(SharedCassandra.class)
class CassandraInFlightIT {
    private static EmbeddedCassandra cassandra;
    private static int tableNumber;

    @BeforeAll
    static void schema() {
        cassandra = SharedCassandra.node();
        try (CqlSession s = cassandra.session(null)) {
            s.execute("CREATE KEYSPACE IF NOT EXISTS inflight WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        }
    }

    /** A table of its own for each test, so that the coordinator's counts of it are the test's alone. */
    private static String table() {
        String name = "inflight.kv" + (++tableNumber) + "_" + System.nanoTime() % 100_000;
        try (CqlSession s = cassandra.session(null)) {
            s.execute("CREATE TABLE " + name + " (k int PRIMARY KEY, v text)");
        }
        return name;
    }

    /** The coordinator's reads and writes of a table, as the node's virtual table counts them. */
    private static Map<String, Long> coordinator(String table) {
        String[] parts = table.split("\\.");
        try (CqlSession s = cassandra.session(null)) {
            long reads = 0;
            long writes = 0;
            for (Row row : s.execute("SELECT keyspace_name, table_name, count FROM system_views.coordinator_read_latency")) {
                if (row.getString(0).equals(parts[0]) && row.getString(1).equals(parts[1])) {
                    reads = row.getLong(2);
                }
            }
            for (Row row : s.execute("SELECT keyspace_name, table_name, count FROM system_views.coordinator_write_latency")) {
                if (row.getString(0).equals(parts[0]) && row.getString(1).equals(parts[1])) {
                    writes = row.getLong(2);
                }
            }
            return Map.of("reads", reads, "writes", writes);
        }
    }

    private static CassandraSampler inFlight(String statement, String bindValues, int n) {
        CassandraSampler s = sampler(statement, bindValues);
        s.setInFlight(Integer.toString(n));
        s.setResponseDataLimit("0");
        return s;
    }

    /** Pauses the node (SIGSTOP) for a while from a thread of its own; returns when and how long it was paused. */
    private static CompletableFuture<long[]> pause(long millis) {
        long[] when = new long[2];
        cassandra.pause();
        when[0] = System.nanoTime();
        return CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                cassandra.resume();
                when[1] = System.nanoTime();
            }
            return when;
        });
    }

    @Test
    void everyRequestCountsOnceWithItsOwnTimingAsTheCoordinatorCountsIt() {
        String table = table();
        SamplerThread thread = new SamplerThread(session(cassandra.address()));
        try (thread) {
            thread.drain(inFlight("INSERT INTO " + table + " (k, v) VALUES (?, ?)", "int #{seq}\ntext v#{seq}", 32),
                    SamplerThread.arrivals(3000));
            thread.drain(inFlight("SELECT v FROM " + table + " WHERE k = ?", "int #{seq:3000}", 32),
                    SamplerThread.arrivals(2000));
        }
        List<Completion> requests = thread.requests();
        assertEquals(5000, requests.size());
        assertTrue(requests.stream().allMatch(r -> r.outcome().code().equals("OK") && r.count() == 1),
                requests.stream().map(r -> r.outcome().code()).collect(Collectors.toSet()).toString());
        assertTrue(thread.rows.size() < 5000, "rows stand for several requests: " + thread.rows.size());
        assertEquals(5000, thread.rows.stream().mapToInt(SampleResult::getSampleCount).sum());
        assertEquals(Map.of("reads", 2000L, "writes", 3000L), coordinator(table),
                "the coordinator ran exactly the requests reported");
        try (CqlSession s = cassandra.session(null)) {
            assertEquals(3000, s.execute("SELECT count(*) FROM " + table).one().getLong(0),
                    "each insert had its own values, #{seq} advancing per request");
        }
        List<Completion> reads = requests.subList(3000, 5000);
        assertTrue(reads.stream().allMatch(r -> r.outcome().message().equals("1 row")), "every read found its row");
        assertTrue(reads.stream().allMatch(r -> r.outcome().sentBytes() > 9 && r.outcome().receivedBytes() > 9),
                "bytes each way per request");
        assertTrue(thread.atThreadEnd.isEmpty(), "nothing was outstanding at the end");
    }

    @Test
    void aPausedNodeShowsInTheRequestsOutstandingThenAndInNoOthers() throws Exception {
        String table = table();
        SamplerThread thread = new SamplerThread(session(cassandra.address()));
        long[] when;
        try (thread) {
            CassandraSampler write = inFlight("INSERT INTO " + table + " (k, v) VALUES (?, ?)", "int #{seq:1000}\ntext v", 16);
            thread.loop(write, Duration.ofMillis(1500));
            CompletableFuture<long[]> paused = pause(700);
            thread.loop(write, Duration.ofMillis(2500));
            when = paused.get(10, TimeUnit.SECONDS);
        }
        List<Completion> answered = thread.requests().stream().filter(r -> r.outcome().code().equals("OK")).toList();
        assertEquals(thread.requests().size() - thread.count(InFlightWindow.CANCELLED), answered.size(),
                "a 700 ms pause fails no request");
        List<Completion> stalled = answered.stream().filter(r -> r.elapsedMicros() >= 600_000).toList();
        assertFalse(stalled.isEmpty(), "the requests outstanding during the pause show it");
        assertTrue(stalled.size() <= 16, "no more than the 16 in flight: " + stalled.size());
        assertTrue(stalled.stream().allMatch(r -> r.sendNanos() < when[1] && r.endNanos() > when[0] + 600_000_000L),
                "each of them was outstanding during the pause");
        List<Completion> after = answered.stream().filter(r -> r.sendNanos() > when[1] + 200_000_000L).toList();
        assertTrue(after.size() > 100, "the load went on after the pause: " + after.size());
        assertTrue(after.stream().noneMatch(r -> r.elapsedMicros() >= 600_000), "requests sent after it do not carry it");
    }

    @Test
    void aNodeThatStopsAnsweringFailsEachRequestAtTheDriversTimeoutAndAStopCancelsTheRest() {
        String table = table();
        CassandraConnection c = session(cassandra.address());
        c.setRequestTimeout("700");
        SamplerThread thread = new SamplerThread(c);
        try (thread) {
            CassandraSampler read = inFlight("SELECT v FROM " + table + " WHERE k = ?", "int #{seq:100}", 8);
            thread.loop(read, Duration.ofMillis(500));
            CompletableFuture<long[]> paused = pause(3000);
            try {
                while (thread.count("DriverTimeoutException") < 16) {
                    thread.sample(read);
                }
                thread.stopTest();
            } finally {
                paused.join();
            }
        }
        List<Completion> timedOut = thread.requests().stream()
                .filter(r -> r.outcome().code().equals("DriverTimeoutException")).toList();
        assertTrue(timedOut.stream().allMatch(r -> r.elapsedMicros() >= 690_000 && r.elapsedMicros() < 3_000_000),
                "each failed at its own 700 ms timeout: " + timedOut.stream().map(Completion::elapsedMicros).toList());
        assertTrue(timedOut.get(0).outcome().message().startsWith("no response within the request timeout of 700 ms"),
                timedOut.get(0).outcome().message());
        SampleResult failedRow = thread.rows.stream().filter(r -> !r.isSuccessful()).findFirst().orElseThrow();
        assertEquals(failedRow.getSampleCount(), failedRow.getErrorCount(), "a failed row counts each request");
        long cancelled = thread.count(InFlightWindow.CANCELLED);
        assertTrue(cancelled > 0 && cancelled <= 8, "those outstanding when the test was stopped are cancelled: " + cancelled);
        assertEquals(thread.requests().size(), thread.count("OK") + timedOut.size() + cancelled,
                "every request ended once: answered, timed out or cancelled");
        RequestsResult cancelledRow = thread.atThreadEnd.stream()
                .filter(r -> r.getResponseCode().equals(InFlightWindow.CANCELLED)).findFirst().orElseThrow();
        assertTrue(cancelledRow.getResponseMessage().startsWith("cancelled"), cancelledRow.getResponseMessage());
    }

    @Test
    void whileNoNodeTakesRequestsTheyAreSentAtABackedOffPace() throws Exception {
        String table = table();
        InetSocketAddress node = new InetSocketAddress(cassandra.host(), cassandra.port());
        try (FaultProxy proxy = FaultProxy.start(List.of(new FaultProxy.RouteSpec("cql",
                new InetSocketAddress("127.0.0.1", 0), node)), new InetSocketAddress("127.0.0.1", 0))) {
            CassandraConnection c = session(proxy.listenAddress("cql"));
            c.setRequestTimeout("1000");
            SamplerThread thread = new SamplerThread(c);
            try (thread) {
                CassandraSampler read = inFlight("SELECT v FROM " + table + " WHERE k = ?", "int 1", 5);
                thread.loop(read, Duration.ofMillis(500));
                assertTrue(proxy.command("APPLY cql reset").startsWith("OK"));
                long downUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (thread.count("NoNodeAvailableException") + thread.count("AllNodesFailedException") == 0
                        && System.nanoTime() < downUntil) {
                    thread.sample(read);
                }
                int before = thread.requests().size();
                long downSeen = System.nanoTime();
                thread.loop(read, Duration.ofSeconds(2));
                // a row holds requests of one kind, so a request that lost its connection at the reset may
                // come in a later row: the requests sent once no node was seen are the ones judged
                List<Completion> refused = thread.requests().subList(before, thread.requests().size()).stream()
                        .filter(r -> r.sendNanos() - downSeen >= 0).toList();
                assertFalse(refused.isEmpty());
                assertTrue(refused.stream().allMatch(r -> CassandraErrors.unreachable(r.outcome())),
                        refused.stream().map(r -> r.outcome().code()).collect(Collectors.toSet()).toString());
                // back-off 10 ms doubling to 1 s: a few rounds of 5 a second; without it, hundreds of thousands
                assertTrue(refused.size() < 200, "attempts in 2 s: " + refused.size());
                assertTrue(proxy.command("REVERT cql all").startsWith("OK"));
            }
        }
    }

    @Test
    void aMissingTableStopsTheTestAtItsFirstRowAndBothModesAreRefusedTogether() {
        SamplerThread thread = new SamplerThread(session(cassandra.address()));
        try (thread) {
            SampleResult missing = thread.sample(inFlight("SELECT v FROM inflight.never_made WHERE k = ?", "int 1", 4));
            assertEquals("InvalidQueryException", missing.getResponseCode());
            assertTrue(missing.isStopTest(), "no retry makes the table appear: " + missing.getResponseMessage());
            CassandraSampler both = inFlight("SELECT release_version FROM system.local", "", 4);
            both.setConcurrent("4");
            SampleResult refused = thread.sample(both);
            assertEquals(Results.CONFIG_ERROR, refused.getResponseCode());
            assertTrue(refused.getResponseMessage().contains("field 'In flight' is 4 and 'Requests per sample' is 4"),
                    refused.getResponseMessage());
        }
    }

    @Test
    void ycsbOperationsInFlightLoadAndRunAtTheirCountsEachUnderItsOwnLabel() {
        YcsbWorkload workload = new YcsbWorkload();
        workload.setName("ycsb");
        workload.setVariableName("ycsb");
        workload.setRecordCount("1500");
        workload.setOperationCount("4000");
        workload.setFieldLength("20");
        workload.setWorkload("a");
        workload.setInsertProportion("0.1");
        workload.setReadModifyWriteProportion("0.1");
        CassandraConnection patient = session(cassandra.address());
        patient.setRequestTimeout("20000"); // a node that flushes on a busy machine may take seconds; no timeout is tested here
        SamplerThread thread = new SamplerThread(patient);
        SampleResult schema;
        workload.testStarted();
        CassandraYcsbSettings cql = CassandraFixture.ycsbSettings("ycsb_inflight", "ONE", true);
        try (thread) {
            YcsbSampler load = new YcsbSampler();
            load.setName("ycsb load");
            load.setBindingSettings("ycsb_cassandra");
            load.setPhase("load");
            load.setInFlight("24");
            schema = thread.sample(load);
            while (!thread.sample(load).isIgnore()) {
                // rows of inserts until every record is in
            }
            YcsbSampler run = new YcsbSampler();
            run.setName("ycsb run");
            run.setBindingSettings("ycsb_cassandra");
            run.setInFlight("24");
            while (!thread.sample(run).isIgnore()) {
                // rows of operations until the operation count is reached
            }
            thread.endThread();
        } finally {
            cql.testEnded();
            workload.testEnded();
        }
        assertEquals("SCHEMA", schema.getSampleLabel());
        assertTrue(schema.isSuccessful(), schema.getResponseMessage());
        Map<String, Long> requests = thread.rows.stream().collect(Collectors.groupingBy(SampleResult::getSampleLabel,
                Collectors.summingLong(SampleResult::getSampleCount)));
        assertEquals(1500L, requests.get("LOAD"), "every record inserted once: " + requests);
        long operations = requests.entrySet().stream().filter(e -> !e.getKey().equals("LOAD"))
                .mapToLong(Map.Entry::getValue).sum();
        assertEquals(4000, operations, "the run ends at the operation count: " + requests);
        assertEquals(Set.of("LOAD", "READ", "UPDATE", "INSERT", "READ-MODIFY-WRITE"), requests.keySet());
        assertTrue(thread.rows.stream().allMatch(SampleResult::isSuccessful), thread.rows.stream()
                .filter(r -> !r.isSuccessful()).map(SampleResult::getResponseMessage).findFirst().orElse(""));
        for (RequestsResult row : thread.rows) {
            assertTrue(row.requests().stream().allMatch(c -> c.outcome().code().equals(row.getResponseCode())),
                    "one operation and one outcome per row");
        }
        assertTrue(thread.rows.stream().filter(r -> r.getSampleLabel().equals("READ"))
                .allMatch(r -> r.getSamplerData().startsWith("READ user")), "each row names its operation");
        try (CqlSession s = cassandra.session("ycsb_inflight")) {
            assertEquals(1500 + requests.get("INSERT"), s.execute("SELECT count(*) FROM usertable").one().getLong(0),
                    "every run-phase insert added a record");
        }
        assertTrue(thread.atThreadEnd.isEmpty(), "nothing was outstanding when the phases ended");
    }
}
