package org.dsload.influxdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

import org.dsload.gauges.GaugeRows;
import org.dsload.gauges.NodeGauges;
import org.dsload.influxdb.report.InfluxServerSection;
import org.dsload.plans.PlanRuns;
import org.dsload.report.LabelStats;
import org.dsload.targets.InfluxDb;
import org.dsload.testing.Prerequisites;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * test-plans/influxdb-write.jmx with its dsload InfluxDB Gauges element against a real InfluxDB
 * 1.x: the server's /debug/vars in the run folder and the summary, the plan's writes and points
 * checked against the server's counts. Skipped, saying why, without influxd unless
 * {@value InfluxDb#REQUIRED_ENV} is true.
 */
@Timeout(300)
class InfluxDbGaugesIT {

    @BeforeAll
    static void influxdIsInstalled() {
        if (InfluxDb.binary().isEmpty()) {
            Prerequisites.missing(InfluxDb.missingMessage(), InfluxDb.REQUIRED_ENV, "true");
        }
    }

    @Test
    void theServersVarsAreRecordedAndTheWritesAndPointsSentMatchItsCounts() throws Exception {
        try (InfluxDb influx = InfluxDb.start()) {
            PlanRuns.Result result = PlanRuns.run("influxdb-write.jmx", Map.of("influx_host", influx.host(),
                    "influx_port", "" + influx.port(), "rate", "300", "duration", "4", "threads", "10"),
                    Duration.ofMinutes(2), false);
            assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
            LabelStats write = result.outcome().summary().label("POST /write");
            long ok = write.statusCodes().getOrDefault("204", 0L);
            // writes on the wire when the duration ends are waited for: none is cancelled
            assertEquals(write.requests(), ok, write.statusCodes().toString());

            String summary = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(summary.contains("== InfluxDB server gauges"), summary);
            // one point per request in this plan
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + write.requests() + ", "),
                    summary);
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + ok + ", " + ok
                    + " (match) write requests"), summary);
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + ok + ", " + ok
                    + " (match) points"), summary);
            assertTrue(Files.exists(result.outcome().dir().resolve(InfluxServerSection.CHART.png())),
                    "the server chart beside the client's figures");
        }
    }

    @Test
    void writesRefusedByAFullCacheShowAsFailedPointsOnTheServerToo() throws Exception {
        try (InfluxDb influx = InfluxDb.start(Map.of("cache-max-memory-size", "1024",
                "cache-snapshot-memory-size", "104857600"))) {
            PlanRuns.Result result = PlanRuns.run("influxdb-write.jmx", Map.of("influx_host", influx.host(),
                    "influx_port", "" + influx.port(), "rate", "200", "duration", "3", "threads", "5"),
                    Duration.ofMinutes(2), false);
            assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
            LabelStats write = result.outcome().summary().label("POST /write");
            long refused = write.statusCodes().getOrDefault("500", 0L);
            long ok = write.statusCodes().getOrDefault("204", 0L);
            assertTrue(refused > 0, write.statusCodes().toString());
            String summary = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + write.requests() + ", "),
                    summary);
            assertEquals(0, write.statusCodes().getOrDefault("CANCELLED", 0L), "nothing cancelled at the end");
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + write.requests() + ", "
                    + write.requests() + " (match) write requests"), summary);
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + ok + ", " + ok
                    + " (match) points"), summary);
            NodeGauges server = NodeGauges.of(GaugeRows.read(result.outcome().dir(), InfluxServerSection.FILE))
                    .get(influx.host() + ":" + influx.port());
            assertEquals(refused, (long) server.increase("server_errors").orElse(-1),
                    "every refused write is a 5xx on the server's side too");
        }
    }
}
