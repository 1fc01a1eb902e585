package org.dsload.cassandra;

import static org.dsload.cassandra.CassandraFixture.run;
import static org.dsload.cassandra.CassandraFixture.sampler;
import static org.dsload.cassandra.CassandraFixture.session;
import static org.dsload.cassandra.CassandraFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.GeneratorMetrics;
import org.dsload.core.Results;
import org.dsload.process.Ports;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.SharedCassandra;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.data.CqlDuration;

/** The CQL Request sampler against a real Cassandra node. */
@Timeout(180)
@ExtendWith(SharedCassandra.class)
class CassandraSamplerIT {
    private static EmbeddedCassandra cassandra;
    private CassandraConnection connection;

    @BeforeAll
    static void schema() {
        cassandra = SharedCassandra.node();
        try (CqlSession s = cassandra.session(null)) {
            s.execute("CREATE KEYSPACE IF NOT EXISTS it WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            s.execute("CREATE TABLE IF NOT EXISTS it.kv (k text PRIMARY KEY, v text)");
            s.execute("CREATE TABLE IF NOT EXISTS it.wide (p int, c int, v text, PRIMARY KEY (p, c))");
        }
    }

    @Test
    void theNodeUnpacksItsNativeLibrariesInItsOwnFolder() throws java.io.IOException {
        // lz4's library, unpacked at each start, was left in the machine's /tmp by every node that was killed
        try (var files = java.nio.file.Files.list(cassandra.dir().resolve("tmp"))) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("liblz4-java")),
                    "no lz4 library in " + cassandra.dir().resolve("tmp"));
        }
    }

    private void connect(String keyspace) {
        JMeterRuntime.freshVariables();
        connection = session(cassandra.address());
        connection.setKeyspace(keyspace);
        connection.testStarted();
    }

    @AfterEach
    void disconnect() {
        if (connection != null) {
            connection.testEnded();
        }
    }

    private static void assertOk(SampleResult r) {
        assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
    }

    @Test
    void schemaStatementsCreateTheKeyspaceAndTable() {
        connect("");
        CassandraSampler ddl = sampler("CREATE KEYSPACE IF NOT EXISTS made WITH replication = "
                + "{'class': 'SimpleStrategy', 'replication_factor': 1}", "");
        ddl.setPrepare("false");
        assertOk(ddl.sample(null));
        CassandraSampler table = sampler("CREATE TABLE IF NOT EXISTS made.t (id int PRIMARY KEY, name text)", "");
        table.setPrepare("false");
        SampleResult r = table.sample(null);
        assertOk(r);
        assertEquals("OK", r.getResponseCode());
        try (CqlSession s = cassandra.session(null)) {
            assertTrue(s.getMetadata().getKeyspace("made").flatMap(k -> k.getTable("t")).isPresent(),
                    "the table exists in the schema");
        }
    }

    @Test
    void preparedInsertThenSelectRoundTripsEveryBindType() {
        try (CqlSession s = cassandra.session(null)) {
            s.execute("CREATE TABLE IF NOT EXISTS it.types (k text PRIMARY KEY, a ascii, i int, b bigint, si smallint, "
                    + "ti tinyint, vi varint, de decimal, f float, d double, bo boolean, u uuid, tu timeuuid, "
                    + "ts timestamp, da date, t time, bl blob, ip inet, du duration, li list<int>, se set<text>, "
                    + "ma map<text, int>)");
        }
        connect("it");
        String uuid = "123e4567-e89b-12d3-a456-426614174000";
        String timeuuid = "50554d6e-29bb-11e5-b345-feff819cdc9f";
        SampleResult insert = run("INSERT INTO types (k, a, i, b, si, ti, vi, de, f, d, bo, u, tu, ts, da, t, bl, ip, "
                + "du, li, se, ma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", """
                text row #{thread}
                ascii plain
                int -42
                bigint 9000000000
                smallint 300
                tinyint 7
                varint 123456789012345678901234567890
                decimal 3.14159
                float 1.5
                double 2.25
                boolean true
                uuid %s
                timeuuid %s
                timestamp 2024-05-01T12:30:00Z
                date 2024-05-01
                time 12:30:00.5
                blob 0xcafe
                inet 127.0.0.1
                duration 1h30m
                list<int> [1, 2, 3]
                set<text> {'a', 'b'}
                map<text, int> {'x': 1}
                """.formatted(uuid, timeuuid));
        assertOk(insert);
        assertEquals("0 rows", insert.getResponseMessage());

        try (CqlSession s = cassandra.session("it")) {
            Row row = s.execute("SELECT * FROM types WHERE k = 'row 1'").one();
            assertEquals("plain", row.getString("a"));
            assertEquals(-42, row.getInt("i"));
            assertEquals(9_000_000_000L, row.getLong("b"));
            assertEquals(300, row.getShort("si"));
            assertEquals(7, row.getByte("ti"));
            assertEquals(new BigInteger("123456789012345678901234567890"), row.getBigInteger("vi"));
            assertEquals(new BigDecimal("3.14159"), row.getBigDecimal("de"));
            assertEquals(1.5f, row.getFloat("f"));
            assertEquals(2.25, row.getDouble("d"));
            assertTrue(row.getBoolean("bo"));
            assertEquals(UUID.fromString(uuid), row.getUuid("u"));
            assertEquals(UUID.fromString(timeuuid), row.getUuid("tu"));
            assertEquals(Instant.parse("2024-05-01T12:30:00Z"), row.getInstant("ts"));
            assertEquals(LocalDate.parse("2024-05-01"), row.getLocalDate("da"));
            assertEquals(LocalTime.parse("12:30:00.5"), row.getLocalTime("t"));
            assertEquals(ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe}), row.getByteBuffer("bl"));
            assertEquals(InetAddress.getLoopbackAddress(), row.getInetAddress("ip"));
            assertEquals(CqlDuration.from("1h30m"), row.getCqlDuration("du"));
            assertEquals(List.of(1, 2, 3), row.getList("li", Integer.class));
            assertEquals(Set.of("a", "b"), row.getSet("se", String.class));
            assertEquals(Map.of("x", 1), row.getMap("ma", String.class, Integer.class));
        }

        SampleResult select = run("SELECT k, i, li, ma FROM types WHERE k = ?", "text row 1");
        assertOk(select);
        assertEquals("1 row", select.getResponseMessage());
        assertEquals("k | i | li | ma\n'row 1' | -42 | [1,2,3] | {'x':1}\n", text(select));
        assertTrue(select.getSamplerData().contains("SELECT k, i, li, ma FROM types WHERE k = ?"), select.getSamplerData());
        assertTrue(select.getResponseHeaders().contains("coordinator: " + cassandra.address()), select.getResponseHeaders());
    }

    @Test
    void nullAndGeneratedValuesBind() {
        connect("it");
        assertOk(run("INSERT INTO kv (k, v) VALUES (?, ?)", "text null-one\ntext #{null}"));
        assertOk(run("INSERT INTO kv (k, v) VALUES (?, ?)", "text generated\ntext #{value:300}"));
        try (CqlSession s = cassandra.session("it")) {
            assertTrue(s.execute("SELECT v FROM kv WHERE k = 'null-one'").one().isNull("v"));
            assertEquals(300, s.execute("SELECT v FROM kv WHERE k = 'generated'").one().getString("v").length());
        }
    }

    @Test
    void aValueNotOfItsTypeFailsTheSampleNamingTheLine() {
        connect("it");
        SampleResult r = run("SELECT * FROM wide WHERE p = ?", "int twelve");
        assertFalse(r.isSuccessful());
        assertEquals(CassandraSampler.BAD_BIND_VALUE, r.getResponseCode());
        assertTrue(r.getResponseMessage().startsWith("'twelve' is not a int value (bind value 'int twelve')"),
                r.getResponseMessage());
    }

    @Test
    void batchesInsertEveryRowInOneRequest() {
        connect("it");
        CassandraSampler logged = sampler("INSERT INTO wide (p, c, v) VALUES (?, ?, ?)", "int 1\nint #{seq}\ntext row #{i}");
        logged.setMode("logged batch");
        logged.setBatchSize("10");
        SampleResult first = logged.sample(null);
        assertOk(first);
        assertEquals(1, first.getSampleCount(), "a batch is one request");
        assertTrue(first.getSamplerData().startsWith("LOGGED BATCH of 10 x 1:"), first.getSamplerData());

        CassandraSampler unlogged = sampler("INSERT INTO wide (p, c, v) VALUES (?, ?, ?); "
                + "INSERT INTO wide (p, c, v) VALUES (?, ?, 'second')", "int 2\nint #{seq}\ntext first\nint 2\nint #{seq:1000}");
        unlogged.setMode("unlogged batch");
        unlogged.setBatchSize("5");
        assertOk(unlogged.sample(null));
        try (CqlSession s = cassandra.session("it")) {
            assertEquals(10, s.execute("SELECT count(*) FROM wide WHERE p = 1").one().getLong(0));
            assertEquals(5, s.execute("SELECT count(*) FROM wide WHERE p = 2").one().getLong(0));
        }
    }

    @Test
    void requestsInFlightAreSentTogetherAndCountedEach() {
        connect("it");
        CassandraSampler writes = sampler("INSERT INTO wide (p, c, v) VALUES (?, ?, ?)", "int 3\nint #{seq}\ntext v#{seq}");
        writes.setConcurrent("20");
        SampleResult r = writes.sample(null);
        assertOk(r);
        assertEquals(20, r.getSampleCount());
        assertEquals("20 requests, 0 rows", r.getResponseMessage());
        SampleResult again = writes.sample(null);
        assertOk(again);
        try (CqlSession s = cassandra.session("it")) {
            assertEquals(40, s.execute("SELECT count(*) FROM wide WHERE p = 3").one().getLong(0),
                    "each request had its own values, #{seq} advancing across samples");
        }
        CassandraSampler reads = sampler("SELECT v FROM wide WHERE p = ? AND c = ?", "int 3\nint #{seq:40}");
        reads.setConcurrent("4");
        SampleResult read = reads.sample(null);
        assertOk(read);
        assertEquals("4 requests, 4 rows", read.getResponseMessage());
        assertTrue(text(read).startsWith("v\n'v0'\n"), text(read));
    }

    @Test
    void pagingReadsEveryPageOrOnlyTheFirst() {
        try (CqlSession s = cassandra.session("it")) {
            for (int c = 0; c < 250; c++) {
                s.execute("INSERT INTO wide (p, c, v) VALUES (7, " + c + ", 'value " + c + "')");
            }
        }
        connect("it");
        CassandraSampler all = sampler("SELECT * FROM wide WHERE p = ?", "int 7");
        all.setPageSize("100");
        SampleResult r = all.sample(null);
        assertOk(r);
        assertEquals("250 rows in 3 pages", r.getResponseMessage());
        long oneRequest = sampler("SELECT * FROM wide WHERE p = ? LIMIT 1", "int 7").sample(null).getSentBytes();
        assertTrue(r.getSentBytes() > 3 * (oneRequest - 4), "three requests, the later two with a paging state: "
                + r.getSentBytes() + " vs " + oneRequest);
        assertTrue(r.getBytesAsLong() > 250 * "value 100".length(), "bytes received count every page: " + r.getBytesAsLong());

        all.setReadAllPages("false");
        SampleResult first = all.sample(null);
        assertOk(first);
        assertEquals("100 rows", first.getResponseMessage());
        assertTrue(first.getBytesAsLong() < r.getBytesAsLong() / 2, first.getBytesAsLong() + " vs " + r.getBytesAsLong());
    }

    @Test
    void aBadStatementFailsWithTheServersSyntaxError() {
        connect("it");
        SampleResult r = run("SELEC * FROM kv", "");
        assertFalse(r.isSuccessful());
        assertEquals("SyntaxError", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("line 1:0 no viable alternative at input 'SELEC'"), r.getResponseMessage());
        assertTrue(r.getResponseMessage().contains("[coordinator " + cassandra.address() + "]"), r.getResponseMessage());

        CassandraSampler unprepared = sampler("SELECT * FROM no_such_table", "");
        unprepared.setPrepare("false");
        SampleResult missing = unprepared.sample(null);
        assertFalse(missing.isSuccessful());
        assertEquals("InvalidQueryException", missing.getResponseCode());
        assertTrue(missing.getResponseMessage().contains("no_such_table"), missing.getResponseMessage());
    }

    @Test
    void conditionalUpdatesReportWhetherTheyApplied() {
        connect("it");
        assertEquals("OK", run("INSERT INTO kv (k, v) VALUES (?, ?) IF NOT EXISTS", "text lwt\ntext a").getResponseCode());
        SampleResult again = run("INSERT INTO kv (k, v) VALUES (?, ?) IF NOT EXISTS", "text lwt\ntext b");
        assertTrue(again.isSuccessful());
        assertEquals(CqlReply.NOT_APPLIED, again.getResponseCode());
        assertTrue(again.getResponseMessage().endsWith("not applied"), again.getResponseMessage());
    }

    @Test
    void policiesCompressionAndDriverOptionsReachTheDriver() {
        JMeterRuntime.freshVariables();
        connection = session(cassandra.address());
        connection.setCompression("lz4");
        connection.setLoadBalancing("dc-inferring");
        connection.setRetryPolicy("consistency-downgrading");
        connection.setSpeculativeExecution("constant");
        connection.setSpeculativeDelay("50");
        connection.setPoolLocalSize("2");
        connection.setConsistency("ONE");
        connection.setDriverOptions("advanced.metadata.schema.enabled = false\nadvanced.heartbeat.interval = 7 seconds\n"
                + "advanced.netty.admin-group.shutdown.quiet-period = 250");
        connection.testStarted();
        CassandraClient client = (CassandraClient) org.apache.jmeter.threads.JMeterContextService.getContext().getVariables()
                .getObject("cassandra");
        var profile = client.session().getContext().getConfig().getDefaultProfile();
        assertEquals("lz4", profile.getString(DefaultDriverOption.PROTOCOL_COMPRESSION));
        assertEquals("DcInferringLoadBalancingPolicy",
                profile.getString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS));
        assertEquals("ConsistencyDowngradingRetryPolicy",
                profile.getString(DefaultDriverOption.RETRY_POLICY_CLASS));
        assertEquals(java.time.Duration.ofMillis(50),
                profile.getDuration(DefaultDriverOption.SPECULATIVE_EXECUTION_DELAY));
        assertEquals(java.time.Duration.ofSeconds(7),
                profile.getDuration(DefaultDriverOption.HEARTBEAT_INTERVAL));
        // the session shuts its event loops down after a quiet period of 100 ms, not the driver's 2 s; the
        // driver options still set it
        assertEquals(List.of("MILLISECONDS", 100, "MILLISECONDS", 250), List.of(
                profile.getString(DefaultDriverOption.NETTY_IO_SHUTDOWN_UNIT),
                profile.getInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD),
                profile.getString(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_UNIT),
                profile.getInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD)));
        CassandraSampler read = sampler("SELECT release_version FROM system.local", "");
        read.setIdempotent("true");
        SampleResult r = read.sample(null);
        assertOk(r);
        assertTrue(text(r).startsWith("release_version\n'5.0."), text(r));
        assertTrue(client.openConnections() >= 2, "two connections to the node: " + client.openConnections());
    }

    @Test
    void anUnknownKeyspaceStopsTheTestAtItsFirstSample() {
        connect("no_such_keyspace");
        SampleResult r = run("SELECT * FROM kv", "");
        assertFalse(r.isSuccessful());
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.isStopTest());
        assertTrue(r.getResponseMessage().contains("field 'Keyspace' names keyspace 'no_such_keyspace', which does not exist"),
                r.getResponseMessage());
    }

    @Test
    void anUnreachableContactPointStopsTheTestAtItsFirstSample() {
        JMeterRuntime.freshVariables();
        connection = session("127.0.0.1:" + Ports.free());
        connection.setConnectTimeout("1000");
        connection.testStarted();
        SampleResult r = run("SELECT * FROM system.local", "");
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.isStopTest());
        assertTrue(r.getResponseMessage().contains("cannot connect to 127.0.0.1:"), r.getResponseMessage());
        assertTrue(r.getResponseMessage().contains("AllNodesFailedException"), r.getResponseMessage());
    }

    @Test
    void aDataCentreWithoutNodesIsRefusedAtStart() {
        JMeterRuntime.freshVariables();
        connection = session(cassandra.address());
        connection.setLocalDatacenter("dc-nowhere");
        connection.testStarted();
        SampleResult r = run("SELECT * FROM system.local", "");
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("field 'Local data centre' is 'dc-nowhere', but the cluster's nodes are in [datacenter1]"),
                r.getResponseMessage());
    }

    @Test
    void theRequestTimeoutIsHonouredWhenTheNodeStopsAnswering() {
        JMeterRuntime.freshVariables();
        connection = session(cassandra.address());
        connection.setRequestTimeout("700");
        connection.testStarted();
        CassandraSampler read = sampler("SELECT * FROM it.kv WHERE k = ?", "text x");
        assertOk(read.sample(null));
        cassandra.pause();
        SampleResult r;
        try {
            r = read.sample(null);
        } finally {
            cassandra.resume();
        }
        assertFalse(r.isSuccessful(), "answered while paused in " + r.getTime() + " ms: " + r.getResponseMessage()
                + " " + r.getResponseHeaders());
        assertEquals("DriverTimeoutException", r.getResponseCode());
        assertTrue(r.getResponseMessage().startsWith("no response within the request timeout of 700 ms"), r.getResponseMessage());
        assertTrue(r.getTime() >= 650 && r.getTime() < 5000, "failed at the timeout, took " + r.getTime() + " ms");
        SampleResult back = read.sample(null);
        assertOk(back);
    }

    @Test
    void generatorMetricsCountBytesAndOpenConnections() {
        connect("it");
        long sentBefore = GeneratorMetrics.registry().counter(GeneratorMetrics.BYTES_SENT).getCount();
        long receivedBefore = GeneratorMetrics.registry().counter(GeneratorMetrics.BYTES_RECEIVED).getCount();
        SampleResult r = run("SELECT * FROM kv WHERE k = ?", "text metrics");
        assertOk(r);
        assertTrue(r.getSentBytes() > 9 && r.getBytesAsLong() > 9, r.getSentBytes() + " / " + r.getBytesAsLong());
        assertEquals(sentBefore + r.getSentBytes(), GeneratorMetrics.registry().counter(GeneratorMetrics.BYTES_SENT).getCount());
        assertEquals(receivedBefore + r.getBytesAsLong(),
                GeneratorMetrics.registry().counter(GeneratorMetrics.BYTES_RECEIVED).getCount());
        Object open = GeneratorMetrics.registry().getGauges().get("dsload.connections.cassandra").getValue();
        assertTrue(((Integer) open) >= 1, "the session's connection is counted, got " + open);
    }

    @Test
    void bytesSentAreTheEncodedRequestFrame() {
        connect("it");
        // EXECUTE in protocol v5: header 9, id [short bytes] 2+16, result metadata id 2+16, consistency 2,
        // flags 4, values: count 2 + (4 + 5 bytes "sizes"), page size 4, timestamp 8
        SampleResult r = run("SELECT v FROM kv WHERE k = ?", "text sizes");
        assertOk(r);
        assertEquals(9 + 18 + 18 + 2 + 4 + 2 + 9 + 4 + 8, r.getSentBytes());
        assertEquals(StandardCharsets.UTF_8.name(), r.getDataEncodingWithDefault());
    }
}
