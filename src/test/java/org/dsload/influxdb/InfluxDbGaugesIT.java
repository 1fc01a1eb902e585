package org.dsload.influxdb;

import static org.dsload.influxdb.InfluxDbFixture.TWO_BODIES;
import static org.dsload.influxdb.InfluxDbFixture.connection;
import static org.dsload.influxdb.InfluxDbFixture.url;
import static org.dsload.influxdb.InfluxDbFixture.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunProperties;
import org.dsload.gauges.CrossCheckLine;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeRows;
import org.dsload.gauges.NodeGauges;
import org.dsload.gauges.TestRunFolder;
import org.dsload.influxdb.report.InfluxDbServerSection;
import org.dsload.plans.PlanRuns;
import org.dsload.report.LabelStats;
import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.testing.SamplerThread;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server's /debug/vars recorded against a real InfluxDB 1.x, by the dsload InfluxDB Connection
 * (test-plans/influxdb-write.jmx, and elements driven here) or a dsload InfluxDB Gauges element, in
 * the run folder and the summary, the writes and points checked against the server's counts.
 * Skipped, saying why, without influxd unless {@value EmbeddedInfluxDb#REQUIRED_ENV} is true.
 */
@Timeout(300)
class InfluxDbGaugesIT {

    /** Requests sent: as many of each of the two bodies, the second with two points. */
    private static final int WRITES = 600;
    private static final long POINTS = WRITES / 2 * 1 + WRITES / 2 * 2;

    @BeforeAll
    static void influxdIsInstalled() {
        InfluxDbFixture.requireInfluxd();
    }

    private static EmbeddedInfluxDb withDatabase() {
        EmbeddedInfluxDb influx = EmbeddedInfluxDb.start();
        influx.query(null, "CREATE DATABASE test");
        return influx;
    }

    /**
     * {@value #WRITES} writes with 4 in flight through a connection; with an element, every row
     * handed to it as JMeter hands a sampler's results to the listeners in its scope.
     */
    private static void writeThrough(InfluxDbConnection connection, InfluxDbGauges element) {
        List<SampleResult> rows = new ArrayList<>();
        if (element != null) {
            element.testStarted();
        }
        try {
            try (SamplerThread run = new SamplerThread(connection)) {
                run.drain(write(TWO_BODIES, 4), SamplerThread.arrivals(WRITES));
                run.endThread();
                rows.addAll(run.rows);
                rows.addAll(run.atThreadEnd);
                assertEquals(WRITES, run.count("204"), "every write accepted");
            }
            if (element != null) {
                rows.forEach(r -> element.sampleOccurred(new SampleEvent(r, "writers")));
            }
        } finally {
            if (element != null) {
                element.testEnded();
            }
        }
    }

    private static InfluxDbGauges element(EmbeddedInfluxDb influx) {
        InfluxDbGauges g = new InfluxDbGauges();
        g.setName("gauges");
        g.setUrls(url(influx));
        return g;
    }

    private static void assertExact(TestRunFolder run, EmbeddedInfluxDb influx) throws Exception {
        String section = run.section(new InfluxDbServerSection());
        assertTrue(section.startsWith("== InfluxDB server gauges"), section);
        assertTrue(section.contains(CrossCheckLine.match(WRITES, "write requests")), section);
        assertTrue(section.contains(CrossCheckLine.match(POINTS, "points")), section);
        List<GaugeTable.Row> rows = GaugeRows.read(run.dir(), InfluxDbServerSection.FILE);
        String server = influx.host() + ":" + influx.port();
        assertTrue(rows.stream().filter(r -> r.ok() && r.node().equals(server)).count() >= 2,
                "read when the test started and when it ended: " + Files.readAllLines(run.dir()
                        .resolve(InfluxDbServerSection.NAME)));
        assertTrue(rows.stream().noneMatch(r -> GaugeFile.REFUSED.equals(r.state())), rows.toString());
    }

    @Test
    void aConnectionRecordsItsServersVarsByDefaultAndItsWritesAndPointsMatchTheServersCounts() throws Exception {
        try (EmbeddedInfluxDb influx = withDatabase(); TestRunFolder run = TestRunFolder.create("influx-connection-gauges")) {
            writeThrough(connection(url(influx)), null);
            assertExact(run, influx);
        }
    }

    @Test
    void aGaugesElementBesideAConnectionThatRecordsCountsNoWriteTwice() throws Exception {
        try (EmbeddedInfluxDb influx = withDatabase(); TestRunFolder run = TestRunFolder.create("influx-both-gauges")) {
            writeThrough(connection(url(influx)), element(influx));
            assertExact(run, influx);
        }
    }

    @Test
    void withTheConnectionsGaugesOffAGaugesElementCountsItsWrites() throws Exception {
        try (EmbeddedInfluxDb influx = withDatabase(); TestRunFolder run = TestRunFolder.create("influx-element-gauges")) {
            InfluxDbConnection c = connection(url(influx));
            c.setRecordGauges("false");
            writeThrough(c, element(influx));
            assertExact(run, influx);
        }
    }

    @Test
    void withGaugesOffNothingIsRecorded() {
        try (EmbeddedInfluxDb influx = withDatabase(); TestRunFolder run = TestRunFolder.create("influx-no-gauges")) {
            InfluxDbConnection c = connection(url(influx));
            c.setRecordGauges("false");
            writeThrough(c, null);
            assertFalse(Files.exists(run.dir().resolve(InfluxDbServerSection.NAME)));
            assertEquals("", run.section(new InfluxDbServerSection()));
        }
    }

    @Test
    void theServersVarsAreRecordedAndTheWritesAndPointsSentMatchItsCounts() throws Exception {
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start()) {
            PlanRuns.Result result = PlanRuns.run("influxdb-write.jmx", Map.of("influx_host", influx.host(),
                    "influx_port", "" + influx.port(), "rate", "300", "duration", "4", "threads", "10", "warmup", "0"),
                    Duration.ofMinutes(2), PlanRuns.Views.CHARTS);
            // the server's counts are judged, not the pace: on a machine busy with other test JVMs a few arrivals may
            // go unsent, which the run says; the counts then match what was sent
            PlanRuns.assertRan(result.outcome(), result.console());
            LabelStats write = result.outcome().summary().label("POST /write");
            long ok = write.statusCodes().getOrDefault("204", 0L);
            // writes on the wire when the duration ends are waited for: none is cancelled
            assertEquals(write.requests(), ok, write.statusCodes().toString());

            String summary = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(summary.contains("== InfluxDB server gauges"), summary);
            // one point per request in this plan
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + write.requests() + ", "),
                    summary);
            assertTrue(summary.contains(CrossCheckLine.match(ok, "write requests")), summary);
            assertTrue(summary.contains(CrossCheckLine.match(ok, "points")), summary);
            assertTrue(Files.exists(result.outcome().dir().resolve(InfluxDbServerSection.CHART.png())),
                    "the server chart beside the client's figures");
        }
    }

    @Test
    void writesRefusedByAFullCacheShowAsFailedPointsOnTheServerToo() throws Exception {
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start(Map.of("cache-max-memory-size", "1024",
                "cache-snapshot-memory-size", "104857600"))) {
            PlanRuns.Result result = PlanRuns.run("influxdb-write.jmx", Map.of("influx_host", influx.host(),
                    "influx_port", "" + influx.port(), "rate", "200", "duration", "3", "threads", "5", "warmup", "0",
                    // most writes are refused by design: the run is told so, or its verdict is "store failed"
                    RunProperties.EXPECT_FAULTS, "true"),
                    Duration.ofMinutes(2), false);
            // a few arrivals unsent on a machine busy with other test JVMs (12 of 600 once) is no failure here
            PlanRuns.assertRan(result.outcome(), result.console());
            LabelStats write = result.outcome().summary().label("POST /write");
            long refused = write.statusCodes().getOrDefault("500", 0L);
            long ok = write.statusCodes().getOrDefault("204", 0L);
            assertTrue(refused > 0, write.statusCodes().toString());
            String summary = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + write.requests() + ", "),
                    summary);
            assertEquals(0, write.statusCodes().getOrDefault("CANCELLED", 0L), "nothing cancelled at the end");
            assertTrue(summary.contains(CrossCheckLine.match(write.requests(), "write requests")), summary);
            assertTrue(summary.contains(CrossCheckLine.match(ok, "points")), summary);
            NodeGauges server = NodeGauges.of(GaugeRows.read(result.outcome().dir(), InfluxDbServerSection.FILE))
                    .get(influx.host() + ":" + influx.port());
            assertEquals(refused, (long) server.increase("server_errors").orElse(-1),
                    "every refused write is a 5xx on the server's side too");
        }
    }
}
